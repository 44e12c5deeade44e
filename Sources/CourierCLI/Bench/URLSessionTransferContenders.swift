import Courier
import CourierURLSession
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The transfers ``TransferBenchmark`` times on URLSession: the same download and upload as
/// on AsyncHTTPClient, by Courier on `URLSessionTransport` and by raw URLSession used the way
/// a careful user would: a download task that hands over a file (moved into place), an upload
/// task from the file on disk. Both sides use a session of their own with the same ephemeral
/// configuration. Each transfer checks that every byte arrived; Courier's also count the
/// progress steps they reported.
struct URLSessionTransferContenders: Sendable {
    let baseURL: URL
    let session: URLSession
    /// Raw URLSession's session with a delegate that counts progress steps
    /// (``RawURLSessionProgress``): the diagnostic contender.
    let progressSession: URLSession
    let client: APIClient
    let folder: URL
    let source: URL
    let bytes: Int

    private struct Received: Decodable, Sendable {
        let bytes: Int
    }

    /// A session for the raw side, and Courier's client on a transport with a session of its own.
    static func make(baseURL: URL, folder: URL, source: URL, bytes: Int) -> URLSessionTransferContenders {
        let client = APIClient(
            configuration: ClientConfiguration(baseURL: baseURL, timeout: .seconds(600)),
            transport: URLSessionTransport(configuration: .ephemeral)
        )
        let session = URLSession(configuration: .ephemeral)
        let progressSession = RawURLSessionProgress.makeSession(configuration: .ephemeral)
        return URLSessionTransferContenders(
            baseURL: baseURL, session: session, progressSession: progressSession, client: client, folder: folder, source: source, bytes: bytes
        )
    }

    /// The same contenders for another file and size, on the same sessions.
    func with(source: URL, bytes: Int) -> URLSessionTransferContenders {
        URLSessionTransferContenders(
            baseURL: baseURL, session: session, progressSession: progressSession, client: client, folder: folder, source: source, bytes: bytes
        )
    }

    // MARK: - Download

    /// Raw URLSession: a download task; its file is moved into place.
    func rawDownload() async throws {
        let destination = folder.appendingPathComponent("raw-us-download.bin")
        let url = URL(string: "\(baseURL.absoluteString)/debug/blobs/bench?size=\(bytes)")!
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            session.downloadTask(with: url) { file, response, error in
                do {
                    if let error { throw error }
                    guard let file, (response as? HTTPURLResponse)?.statusCode == 200 else {
                        throw TransferContenders.Mismatch(description: "raw URLSession download answered \(String(describing: response))")
                    }
                    try? FileManager.default.removeItem(at: destination)
                    try FileManager.default.moveItem(at: file, to: destination)
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }.resume()
        }
        try TransferContenders.check(destination, bytes: bytes)
        try FileManager.default.removeItem(at: destination)
    }

    /// Raw URLSession with progress: a download task whose session delegate counts
    /// `didWriteData` and moves the file into place; returns the progress steps.
    @discardableResult
    func rawDownloadWithProgress() async throws -> Int {
        let destination = folder.appendingPathComponent("raw-us-progress-download.bin")
        let url = URL(string: "\(baseURL.absoluteString)/debug/blobs/bench?size=\(bytes)")!
        let steps = try await RawURLSessionProgress.download(url, to: destination, in: progressSession)
        try TransferContenders.check(destination, bytes: bytes)
        try FileManager.default.removeItem(at: destination)
        return steps
    }

    /// Courier: `APIClient.download(_:to:)` on `URLSessionTransport`; returns the progress steps.
    @discardableResult
    func courierDownload() async throws -> Int {
        let destination = folder.appendingPathComponent("courier-us-download.bin")
        let request = Request<Data>(path: "/debug/blobs/bench", query: [URLQueryItem(name: "size", value: "\(bytes)")])
        let download = client.download(request, to: destination)
        let steps = Task { await download.progress.reduce(0) { count, _ in count + 1 } }
        let result = try await download.value()
        guard result.byteCount == Int64(bytes) else { throw TransferContenders.Mismatch(description: "courier on URLSession downloaded \(result.byteCount) bytes") }
        try TransferContenders.check(destination, bytes: bytes)
        try FileManager.default.removeItem(at: destination)
        return await steps.value
    }

    // MARK: - Upload

    /// Raw URLSession: an upload task from the file, as a careful user sends one.
    func rawUpload() async throws {
        let request = uploadRequest()
        try await checkedUpload("raw URLSession") { session.uploadTask(with: request, fromFile: source, completionHandler: $0) }
    }

    #if canImport(FoundationNetworking)
    /// Raw URLSession sending the file as Courier's transport does on Linux: a data task whose
    /// body is a stream of the file, with its `Content-Length` and the blank
    /// `Transfer-Encoding` that keeps libcurl from framing it chunked as well (see
    /// `URLSessionTransport`, "Bodies"). No delegate. A diagnostic: it shows how much of the
    /// gap to ``rawUpload()`` is the way swift-corelibs-foundation reads an upload task's file.
    func rawUploadAsStream() async throws {
        var request = uploadRequest()
        request.setValue(String(bytes), forHTTPHeaderField: "Content-Length")
        request.setValue(" ", forHTTPHeaderField: "Transfer-Encoding")
        request.httpBodyStream = InputStream(url: source)
        try await checkedUpload("raw URLSession stream") { [request] in session.dataTask(with: request, completionHandler: $0) }
    }
    #endif

    /// A `POST /debug/upload?digest=none` of bytes.
    private func uploadRequest() -> URLRequest {
        var request = URLRequest(url: URL(string: "\(baseURL.absoluteString)/debug/upload?digest=none")!)
        request.httpMethod = "POST"
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        return request
    }

    /// Runs the task `makeTask` makes with the given completion handler, and checks that the
    /// server answered 200 and received every byte.
    private func checkedUpload(
        _ contender: String,
        _ makeTask: (@escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) -> URLSessionTask
    ) async throws {
        let received: Received = try await withCheckedThrowingContinuation { continuation in
            makeTask { data, response, error in
                do {
                    if let error { throw error }
                    guard (response as? HTTPURLResponse)?.statusCode == 200, let data else {
                        throw TransferContenders.Mismatch(description: "\(contender) upload answered \(String(describing: response))")
                    }
                    continuation.resume(returning: try JSONDecoder().decode(Received.self, from: data))
                } catch {
                    continuation.resume(throwing: error)
                }
            }.resume()
        }
        guard received.bytes == bytes else { throw TransferContenders.Mismatch(description: "\(contender) uploaded \(received.bytes) bytes") }
    }

    /// Raw URLSession with progress: an upload task from the file whose session delegate
    /// counts `didSendBodyData` and gathers the answer; returns the progress steps.
    @discardableResult
    func rawUploadWithProgress() async throws -> Int {
        let url = URL(string: "\(baseURL.absoluteString)/debug/upload?digest=none")!
        let (steps, received) = try await RawURLSessionProgress.upload(source, to: url, in: progressSession)
        guard received == bytes else { throw TransferContenders.Mismatch(description: "raw URLSession with progress uploaded \(received) bytes") }
        return steps
    }

    /// Courier: `APIClient.upload(_:)` of `.file(_:)` on `URLSessionTransport`; returns the progress steps.
    @discardableResult
    func courierUpload() async throws -> Int {
        let request = Request<Received>(
            method: .post,
            path: "/debug/upload",
            query: [URLQueryItem(name: "digest", value: "none")],
            body: try .file(source)
        )
        let upload = client.upload(request)
        let steps = Task { await upload.progress.reduce(0) { count, _ in count + 1 } }
        let received = try await upload.value().value
        guard received.bytes == bytes else { throw TransferContenders.Mismatch(description: "courier on URLSession uploaded \(received.bytes) bytes") }
        return await steps.value
    }

    /// Ends the raw sessions.
    func invalidate() {
        session.finishTasksAndInvalidate()
        progressSession.finishTasksAndInvalidate()
    }
}
