import Courier
import Foundation
import Testing

@Suite("multipart/form-data: the exact bytes, the length, replay")
struct MultipartFormDataTests {
    private func bytes(of body: HTTPBody) async throws -> Data {
        var data = Data()
        for try await chunk in body { data.append(chunk) }
        return data
    }

    @Test func aFormIsEncodedAsRFC7578Says() async throws {
        var form = MultipartFormData(boundary: "XyZ-42")
        form.append("1", name: "a")
        form.append(Data("hi".utf8), name: "f", filename: "x.txt", contentType: "text/plain")
        let expected = "--XyZ-42\r\n"
            + "Content-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n"
            + "--XyZ-42\r\n"
            + "Content-Disposition: form-data; name=\"f\"; filename=\"x.txt\"\r\n"
            + "Content-Type: text/plain\r\n\r\nhi\r\n"
            + "--XyZ-42--\r\n"
        let body = form.body
        #expect(String(decoding: try await bytes(of: body), as: UTF8.self) == expected)
        #expect(body.length == .known(Int64(expected.utf8.count)))
        #expect(form.length == body.length)
        #expect(form.contentType == "multipart/form-data; boundary=XyZ-42")
        #expect(form.partCount == 2)
    }

    @Test func anEmptyFormIsJustTheCloseDelimiter() async throws {
        let form = MultipartFormData(boundary: "b")
        #expect(String(decoding: try await bytes(of: form.body), as: UTF8.self) == "--b--\r\n")
        #expect(form.length == .known(7))
    }

    @Test func quotesAndLineBreaksInNamesAreEncodedSoTheyCannotEndTheHeader() async throws {
        var form = MultipartFormData(boundary: "b")
        form.append(Data("x".utf8), name: "a\"b", filename: "evil\r\nX-Injected: 1.txt", contentType: "text/plain\r\nX-Other: 2")
        let text = String(decoding: try await bytes(of: form.body), as: UTF8.self)
        #expect(text.contains("name=\"a%22b\"; filename=\"evil%0D%0AX-Injected: 1.txt\""))
        #expect(text.contains("Content-Type: text/plainX-Other: 2\r\n"))
        #expect(!text.contains("\r\nX-Injected"))
    }

    @Test func aFileFormIsStreamedWithAKnownLengthAndCanBeSentTwice() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-multipart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("samples.bin")
        let content = Data((0..<700_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        try content.write(to: file)

        var form = MultipartFormData()
        form.append("night", name: "label")
        try form.appendFile(at: file, name: "upload", contentType: "application/octet-stream")
        let body = form.body
        #expect(body.isReplayable)
        let first = try await bytes(of: body)
        let second = try await bytes(of: body)
        #expect(first == second)
        #expect(body.length == .known(Int64(first.count)))
        #expect(first.count > content.count)
        #expect(first.range(of: content) != nil, "the file's bytes are sent whole, in order")
        #expect(String(decoding: first.prefix(400), as: UTF8.self).contains("filename=\"samples.bin\""))
    }

    @Test func aStreamedPartOfUnknownLengthMakesTheFormLengthUnknownAndSingleUse() {
        var form = MultipartFormData()
        let stream = AsyncStream<Data> { $0.finish() }
        form.append(HTTPBody(stream), name: "live")
        #expect(form.length == .unknown)
        #expect(!form.body.isReplayable)
    }

    @Test func aMissingFileIsAFileSystemErrorWhenAdded() async {
        var form = MultipartFormData()
        let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/file.bin")
        let error = await courierError { try form.appendFile(at: missing, name: "f") }
        #expect(error?.code == .fileSystem)
        #expect(error?.message.contains("no such file") == true)
    }
}
