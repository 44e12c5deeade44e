import Courier
import CourierAsyncHTTPClient
import Foundation
import Testing

/// What `/debug/upload` says it received.
private struct Received: Decodable, Sendable {
    let bytes: Int
    let sha256: String?
    let contentLength: String?
    let contentType: String?
}

/// What `/debug/multipart` found in a form.
private struct FormSummary: Decodable, Sendable {
    struct Part: Decodable, Sendable {
        let name: String
        let filename: String?
        let contentType: String?
        let bytes: Int
        let sha256: String
    }
    let parts: [Part]
}

@Suite("Uploads with progress, against the reference server", .serialized, .timeLimit(.minutes(2)))
struct UploadTests {
    @Test func anUploadFromMemoryReportsMonotonicProgressToItsTotal() async throws {
        try await withClient(.asyncHTTPClient) { client, _ in
            let payload = patternBytes(1 << 20)
            let upload = client.upload(Request<Received>(method: .post, path: "/debug/upload", body: .data(payload)))
            let log = collectProgress(of: upload)
            let received = try await upload.value().value
            let progress = await log.value

            #expect(received.bytes == payload.count)
            #expect(received.sha256 == sha256Hex(payload))
            #expect(received.contentLength == "\(payload.count)")
            #expect(progress.count > 2, "progress moves as the bytes go out, not all at once")
            #expect(isMonotonicAndComplete(progress, total: Int64(payload.count)))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aFileIsStreamedWithItsLengthAndArrivesIntact(engine: TransportKind) async throws {
        try await withTemporaryFolder { folder in
            let file = folder.appendingPathComponent("export.bin")
            // 8 MiB: swift-corelibs-foundation has reported a 2 MiB upload in as few as four
            // `didSendBodyData` steps, which says nothing about progress moving as bytes go out.
            let content = patternBytes(8 << 20, seed: 3)
            try content.write(to: file)
            try await withClient(engine) { client, _ in
                let upload = client.upload(Request<Received>(method: .put, path: "/debug/upload", body: try .file(file)))
                let log = collectProgress(of: upload)
                let response = try await upload.value()
                let progress = await log.value

                #expect(response.value.bytes == content.count)
                #expect(response.value.sha256 == sha256Hex(content))
                #expect(response.value.contentLength == "\(content.count)", "sent with a Content-Length, not chunked")
                #expect(response.value.contentType == "application/octet-stream")
                #expect(response.metrics.bytesSent == Int64(content.count))
                #expect(isMonotonicAndComplete(progress, total: Int64(content.count)))
                #expect(progress.count >= 5)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aFileThatChangedSizeSinceItsBodyWasMadeIsAFileSystemError(engine: TransportKind) async throws {
        try await withTemporaryFolder { folder in
            let file = folder.appendingPathComponent("shrinks.bin")
            try patternBytes(256 << 10, seed: 5).write(to: file)
            let request = Request<Received>(method: .post, path: "/debug/upload", body: try .file(file))
            try patternBytes(1_000, seed: 5).write(to: file)
            try await withClient(engine) { client, _ in
                let error = await #expect(throws: CourierError.self) { try await client.send(request) }
                #expect(error?.code == .fileSystem)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aRetriedFileUploadIsSentAgainWholeAndProgressStillOnlyGoesUp(engine: TransportKind) async throws {
        try await withTemporaryFolder { folder in
            let file = folder.appendingPathComponent("retry.bin")
            let content = patternBytes(512 << 10, seed: 9)
            try content.write(to: file)
            try await withRunningServer { server, url in
                server.faults.inject(.status(503), count: 1, method: "POST", path: "/debug/upload")
                try await withTransport(engine) { transport in
                    let client = APIClient(
                        configuration: ClientConfiguration(baseURL: url, retryPolicy: RetryPolicy(maxAttempts: 2, backoff: .none)),
                        transport: transport
                    )
                    let upload = client.upload(Request<Received>(
                        method: .post, path: "/debug/upload", body: try .file(file), options: RequestOptions(idempotencyKey: "upload-1")
                    ))
                    let log = collectProgress(of: upload)
                    let response = try await upload.value()
                    #expect(response.metrics.attempts == 2)
                    #expect(response.value.sha256 == sha256Hex(content))
                    #expect(isMonotonicAndComplete(await log.value, total: Int64(content.count)))
                }
            }
        }
    }

    @Test func aMultipartFormWithAFileRoundTripsPartByPart() async throws {
        try await withTemporaryFolder { folder in
            let file = folder.appendingPathComponent("night-2026-11-21.bin")
            let content = patternBytes(1 << 20, seed: 5)
            try content.write(to: file)
            var form = MultipartFormData()
            form.append("night of 21 November", name: "label")
            try form.appendFile(at: file, name: "recording", contentType: "application/octet-stream")
            form.append(Data("{\"v\":1}".utf8), name: "meta", filename: "meta.json", contentType: "application/json")
            guard case .known(let formLength) = form.length else {
                Issue.record("a form of fields, bytes and a file has a known length")
                return
            }
            try await withClient(.asyncHTTPClient) { client, _ in
                let upload = client.upload(Request<FormSummary>(method: .post, path: "/debug/multipart", body: .multipart(form)))
                let log = collectProgress(of: upload)
                let summary = try await upload.value().value

                #expect(summary.parts.map(\.name) == ["label", "recording", "meta"])
                #expect(summary.parts[0].filename == nil)
                #expect(summary.parts[0].sha256 == sha256Hex(Data("night of 21 November".utf8)))
                #expect(summary.parts[1].filename == "night-2026-11-21.bin")
                #expect(summary.parts[1].contentType == "application/octet-stream")
                #expect(summary.parts[1].bytes == content.count)
                #expect(summary.parts[1].sha256 == sha256Hex(content))
                #expect(summary.parts[2].filename == "meta.json")
                #expect(summary.parts[2].contentType == "application/json")
                #expect(isMonotonicAndComplete(await log.value, total: formLength))
            }
        }
    }

    @Test func aMissingFileIsAFileSystemErrorBeforeAnythingIsSent() async {
        let error = await courierError { _ = try RequestBody.file(URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString).bin")) }
        #expect(error?.code == .fileSystem)
        #expect(error?.underlying is POSIXError)
    }

    @Test func aRejectedUploadFailsTheTransferWithTheServersStatusAndEndsItsProgress() async throws {
        try await withRunningServer { server, url in
            server.faults.inject(.status(422), count: 1, method: "POST", path: "/debug/upload")
            try await withTransport(AsyncHTTPClientTransport()) { transport in
                let client = APIClient(baseURL: url, transport: transport)
                let upload = client.upload(Request<Received>(method: .post, path: "/debug/upload", body: .data(patternBytes(100_000))))
                let log = collectProgress(of: upload)
                let result = await upload.result()
                guard case .failure(let error) = result else {
                    Issue.record("a 422 must fail the upload")
                    return
                }
                #expect(error.code == .clientError)
                #expect(error.status?.code == 422)
                // The progress sequence ends when the transfer fails; waiting for it must return.
                _ = await log.value
            }
        }
    }
}
