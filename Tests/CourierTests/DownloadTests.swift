import Courier
import CourierAsyncHTTPClient
import Foundation
import HTTPTypes
import ReferenceServer
import Testing

/// A client on AsyncHTTPClient that records the headers of every attempt, against a running server.
private func withDownloadClient(
    _ body: (APIClient, ReferenceServer, RequestHeaderLog) async throws -> Void
) async throws {
    try await withRunningServer { server, url in
        let log = RequestHeaderLog()
        let transport = AsyncHTTPClientTransport()
        let client = APIClient(
            configuration: ClientConfiguration(baseURL: url, networkMiddleware: [log.middleware]),
            transport: transport
        )
        do {
            try await body(client, server, log)
            try await transport.shutdown()
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }
}

/// The request for a blob of `size` bytes.
private func blob(_ name: String, size: Int) -> Request<Data> {
    Request(path: "/debug/blobs/\(name)", query: [URLQueryItem(name: "size", value: "\(size)")])
}

/// The whole blob, read in memory, to compare a downloaded file with.
private func expectedBytes(_ client: APIClient, _ name: String, size: Int) async throws -> Data {
    var request = blob(name, size: size)
    request.options.maxResponseBytes = size
    return try await client.value(for: request)
}

/// Quick resumption, so the tests do not wait.
private let quickResume = DownloadOptions(resumeAttempts: 3, resumeDelay: .milliseconds(1))

@Suite("Downloads to a file: progress, atomic move, resumption", .serialized, .timeLimit(.minutes(2)))
struct DownloadTests {
    @Test func aDownloadReportsMonotonicProgressAndLandsIntact() async throws {
        try await withTemporaryFolder { folder in
            try await withDownloadClient { client, _, _ in
                let size = 2 << 20
                let expected = try await expectedBytes(client, "plain", size: size)
                let destination = folder.appendingPathComponent("plain.bin")
                let download = client.download(blob("plain", size: size), to: destination)
                let log = collectProgress(of: download)
                let result = try await download.value()
                let progress = await log.value

                #expect(result.fileURL == destination.standardizedFileURL)
                #expect(result.byteCount == Int64(size))
                #expect(result.response.status == .ok)
                #expect(result.resumes == 0 && result.restarts == 0)
                #expect(try sha256Hex(ofFile: destination) == sha256Hex(expected))
                #expect(progress.count > 5)
                #expect(isMonotonicAndComplete(progress, total: Int64(size)))
            }
        }
    }

    @Test func theDestinationAppearsOnlyWhenCompleteAndNoTemporaryFileIsLeft() async throws {
        try await withTemporaryFolder { folder in
            try await withRunningServer { _, url in
                let gate = BodyGate()
                try await withTransport(AsyncHTTPClientTransport()) { transport in
                    let client = APIClient(configuration: ClientConfiguration(baseURL: url, networkMiddleware: [gate.middleware]), transport: transport)
                    let destination = folder.appendingPathComponent("report.bin")
                    let old = Data("the previous report".utf8)
                    try old.write(to: destination)
                    let partial = folder.appendingPathComponent(".report.bin.courier-partial")

                    let download = client.download(blob("report", size: 2 << 20), to: destination)
                    await gate.waitUntilPaused()
                    // Mid-download: the old file is untouched; the bytes so far are in an owner-only partial file.
                    #expect(try Data(contentsOf: destination) == old)
                    let attributes = try FileManager.default.attributesOfItem(atPath: partial.path)
                    #expect(attributes[.posixPermissions] as? Int == 0o600)
                    #expect((attributes[.size] as? Int ?? 0) > 0)
                    gate.open()

                    let result = try await download.value()
                    #expect(result.byteCount == 2 << 20)
                    #expect(try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int == 2 << 20)
                    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["report.bin"])
                }
            }
        }
    }

    @Test func aDroppedConnectionIsResumedWithRangeAndIfRangeAndTheFileMatches() async throws {
        try await withTemporaryFolder { folder in
            try await withDownloadClient { client, server, headers in
                let size = 3 << 20
                let expected = try await expectedBytes(client, "resumable", size: size)
                server.bodyFaults.dropConnection(afterBodyBytes: 1 << 20, path: "/debug/blobs/resumable")
                let firstAttempt = headers.requests.count

                let destination = folder.appendingPathComponent("resumable.bin")
                let download = client.download(blob("resumable", size: size), to: destination, options: quickResume)
                let log = collectProgress(of: download)
                let result = try await download.value()

                #expect(result.resumes == 1)
                #expect(result.restarts == 0)
                #expect(result.response.status == .partialContent)
                #expect(try sha256Hex(ofFile: destination) == sha256Hex(expected))
                #expect(isMonotonicAndComplete(await log.value, total: Int64(size)))
                let attempts = Array(headers.requests.dropFirst(firstAttempt))
                try #require(attempts.count == 2)
                #expect(attempts[0][.range] == nil)
                let range = try #require(attempts[1][.range])
                let offset = try #require(Int(range.dropFirst("bytes=".count).dropLast()))
                #expect(range.hasPrefix("bytes=") && range.hasSuffix("-"))
                #expect(offset > 0 && offset <= 1 << 20, "resumed from the bytes on disk")
                #expect(attempts[1][.ifRange]?.hasPrefix("\"blob-") == true, "If-Range carries the first answer's strong ETag")
                #expect(server.bodyFaults.remaining(path: "/debug/blobs/resumable") == 0)
            }
        }
    }

    @Test func aPartialFileLeftByAFailedCallIsResumedByTheNextCall() async throws {
        try await withTemporaryFolder { folder in
            try await withDownloadClient { client, server, _ in
                let size = 2 << 20
                let expected = try await expectedBytes(client, "later", size: size)
                server.bodyFaults.dropConnection(afterBodyBytes: 512 << 10, path: "/debug/blobs/later")
                let destination = folder.appendingPathComponent("later.bin")

                let failed = await client.download(blob("later", size: size), to: destination, options: DownloadOptions(resumeAttempts: 0)).result()
                guard case .failure(let error) = failed else {
                    Issue.record("without resume attempts the cut download must fail")
                    return
                }
                #expect(error.code == .connectionLost)
                #expect(!FileManager.default.fileExists(atPath: destination.path))
                let partial = folder.appendingPathComponent(".later.bin.courier-partial")
                let kept = try #require(try FileManager.default.attributesOfItem(atPath: partial.path)[.size] as? Int)
                #expect(kept > 0 && kept <= 512 << 10)

                let result = try await client.download(blob("later", size: size), to: destination, options: quickResume).value()
                #expect(result.resumes == 1)
                #expect(result.response.status == .partialContent)
                #expect(try sha256Hex(ofFile: destination) == sha256Hex(expected))
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["later.bin"])
            }
        }
    }

    @Test func aResourceThatChangedMeanwhileIsDownloadedAgainFromZero() async throws {
        try await withTemporaryFolder { folder in
            try await withDownloadClient { client, server, headers in
                let size = 2 << 20
                server.bodyFaults.dropConnection(afterBodyBytes: 512 << 10, path: "/debug/blobs/edited")
                let destination = folder.appendingPathComponent("edited.bin")
                let cut = await client.download(blob("edited", size: size), to: destination, options: DownloadOptions(resumeAttempts: 0)).result()
                #expect((try? cut.get()) == nil, "the first call is cut short and leaves a partial file")

                #expect(server.reviseBlob(named: "edited") == 1)
                let current = try await expectedBytes(client, "edited", size: size)
                let before = headers.requests.count
                let download = client.download(blob("edited", size: size), to: destination, options: quickResume)
                let log = collectProgress(of: download)
                let result = try await download.value()

                #expect(result.resumes == 1, "it asked for the rest with the old validator")
                #expect(result.restarts == 1, "the server's 200 made it start again")
                #expect(result.response.status == .ok)
                #expect(try sha256Hex(ofFile: destination) == sha256Hex(current), "the new version, not old bytes with new ones")
                #expect(isMonotonicAndComplete(await log.value, total: Int64(size)))
                #expect(headers.requests[before][.range] != nil)
                #expect(headers.requests[before][.ifRange]?.hasSuffix("-r0\"") == true, "the validator of the old revision")
            }
        }
    }

    @Test func aPartialFileThatIsAlreadyCompleteIsMovedIntoPlaceOnA416() async throws {
        try await withTemporaryFolder { folder in
            try await withDownloadClient { client, server, _ in
                let size = 1 << 20
                let content = try await expectedBytes(client, "whole", size: size)
                let destination = folder.appendingPathComponent("whole.bin")
                // A first call leaves a partial file and its record; then the file is completed
                // by hand, as if the last bytes had reached the disk just before a crash.
                server.bodyFaults.dropConnection(afterBodyBytes: 256 << 10, path: "/debug/blobs/whole")
                _ = await client.download(blob("whole", size: size), to: destination, options: DownloadOptions(resumeAttempts: 0)).result()
                try content.write(to: folder.appendingPathComponent(".whole.bin.courier-partial"))

                let result = try await client.download(blob("whole", size: size), to: destination).value()
                #expect(result.response.status == .rangeNotSatisfiable)
                #expect(result.byteCount == Int64(size))
                #expect(try Data(contentsOf: destination) == content)
            }
        }
    }

    @Test func aServerErrorFailsTheDownloadWithItsStatusAndKeepsNothingAtTheDestination() async throws {
        try await withTemporaryFolder { folder in
            try await withDownloadClient { client, _, _ in
                let destination = folder.appendingPathComponent("missing.bin")
                let result = await client.download(Request<Data>(path: "/debug/blobs/x"), to: destination).result()
                guard case .failure(let error) = result else {
                    Issue.record("a request without size must fail")
                    return
                }
                #expect(error.code == .clientError)
                #expect(error.status?.code == 422)
                #expect(!FileManager.default.fileExists(atPath: destination.path))
            }
        }
    }

    @Test func aFolderThatCannotBeWrittenIsAFileSystemError() async throws {
        try await withTemporaryFolder { folder in
            try await withDownloadClient { client, _, _ in
                let destination = folder.appendingPathComponent("no-such-folder/file.bin")
                let result = await client.download(blob("nowhere", size: 1_000), to: destination).result()
                guard case .failure(let error) = result else {
                    Issue.record("writing into a missing folder must fail")
                    return
                }
                #expect(error.code == .fileSystem)
                #expect(error.message.contains("no such file or folder"))
                #expect(error.underlying is POSIXError)
            }
        }
    }

    @Test func aSymbolicLinkPlantedAtThePartialFilesPlaceIsNeverWrittenThrough() async throws {
        try await withTemporaryFolder { folder in
            try await withDownloadClient { client, _, _ in
                let target = folder.appendingPathComponent("elsewhere.txt")
                try Data("keep me".utf8).write(to: target)
                let partial = folder.appendingPathComponent(".planted.bin.courier-partial")
                try FileManager.default.createSymbolicLink(at: partial, withDestinationURL: target)

                let destination = folder.appendingPathComponent("planted.bin")
                let result = try await client.download(blob("planted", size: 100_000), to: destination).value()
                #expect(result.byteCount == 100_000)
                #expect(try Data(contentsOf: target) == Data("keep me".utf8))
                #expect(try FileManager.default.attributesOfItem(atPath: destination.path)[.type] as? FileAttributeType == .typeRegular)
            }
        }
    }

    @Test func cancellingTheTaskThatAwaitsTheValueCancelsTheTransfer() async throws {
        try await withTemporaryFolder { folder in
            try await withDownloadClient { client, _, _ in
                let download = client.download(blob("awaited", size: 512 << 20), to: folder.appendingPathComponent("awaited.bin"))
                let waiter = Task { try await download.value() }
                for await step in download.progress where step.completedBytes > 0 { break }
                waiter.cancel()
                let error = await courierError { _ = try await waiter.value }
                #expect(error?.code == .cancelled)
                #expect(download.isCancelled)
            }
        }
    }

    @Test func cancellingADownloadStopsItAndKeepsThePartialFileForLater() async throws {
        try await withTemporaryFolder { folder in
            try await withDownloadClient { client, _, _ in
                let destination = folder.appendingPathComponent("big.bin")
                let download = client.download(blob("big", size: 512 << 20), to: destination)
                for await step in download.progress where step.completedBytes > 0 {
                    download.cancel()
                    break
                }
                let result = await download.result()
                guard case .failure(let error) = result else {
                    Issue.record("a cancelled download must fail")
                    return
                }
                #expect(error.code == .cancelled)
                #expect(!FileManager.default.fileExists(atPath: destination.path))
                #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(".big.bin.courier-partial").path))
            }
        }
    }
}
