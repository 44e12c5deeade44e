import Courier
import Foundation
import HTTPTypes
import Testing

/// A file body leaves with its length and nothing else framing it, on every engine. On Linux
/// the URLSession transport sends the file as a stream (see `FileBodyStream`), which libcurl
/// would otherwise frame with both `Content-Length` and `Transfer-Encoding: chunked`; a
/// server that receives both must refuse the request or ignore one of them.
@Suite("A file body's framing on the wire", .serialized, .timeLimit(.minutes(1)))
struct URLSessionFileUploadTests {
    @Test(arguments: TransportKind.allCases, [HTTPRequest.Method.post, .put])
    func aFileBodyGoesOutWithOneContentLengthNoTransferEncodingAndExactlyItsBytes(
        engine: TransportKind,
        method: HTTPRequest.Method
    ) async throws {
        try await withTemporaryFolder { folder in
            let file = folder.appendingPathComponent("upload.bin")
            let content = patternBytes(1 << 20, seed: 11)
            try content.write(to: file)
            try await withRecordingUploadServer { server in
                try await withTransport(engine) { transport in
                    let client = APIClient(configuration: ClientConfiguration(baseURL: server.url), transport: transport)
                    let upload = client.upload(Request<Void>(method: method, path: "/upload", body: try .file(file)))
                    let log = collectProgress(of: upload)
                    _ = try await upload.value()
                    #expect(isMonotonicAndComplete(await log.value, total: Int64(content.count)))
                }
                let exchange = try #require(server.received.first)
                #expect(server.received.count == 1)
                #expect(exchange.head.hasPrefix("\(method.rawValue) /upload HTTP/1.1\r\n"))
                #expect(exchange.values(of: "Content-Length") == ["\(content.count)"])
                #expect(exchange.values(of: "Transfer-Encoding").isEmpty, "no Transfer-Encoding line, blank or not: \(exchange.head)")
                #expect(exchange.values(of: "Content-Type") == ["application/octet-stream"])
                #expect(exchange.body.count == content.count)
                #expect(exchange.body.elementsEqual(content), "the body is the file's bytes, unframed")
            }
        }
    }
}
