import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Raw URLSession used the way a careful user who shows progress uses it: a session delegate
/// that counts `didWriteData` (download task) and `didSendBodyData` (upload task from a file)
/// and takes the result in `didCompleteWithError`. A diagnostic beside
/// ``URLSessionTransferContenders``' raw transfers, which have no delegate and report no
/// progress: it prices what URLSession itself charges any client for progress (on Linux,
/// swift-corelibs-foundation reopens a download's file for every chunk, and looks up an
/// upload's file attributes for every chunk), apart from what Courier adds.
final class RawURLSessionProgress: NSObject, URLSessionDataDelegate, URLSessionDownloadDelegate, Sendable {
    private struct Transfer {
        let continuation: CheckedContinuation<(steps: Int, body: Data), any Error>
        /// Where a download's file goes once URLSession has it whole.
        let destination: URL?
        var steps = 0
        var body = Data()
        var moveFailure: (any Error)?
    }

    private let transfers = Mutex<[Int: Transfer]>([:])

    private struct Received: Decodable, Sendable {
        let bytes: Int
    }

    /// A session of its own with `configuration`, with a new one of these as its delegate.
    static func makeSession(configuration: URLSessionConfiguration) -> URLSession {
        URLSession(configuration: configuration, delegate: RawURLSessionProgress(), delegateQueue: nil)
    }

    /// Downloads `url` to `destination` with a download task of `session` (one that
    /// ``makeSession(configuration:)`` made); returns the progress steps.
    static func download(_ url: URL, to destination: URL, in session: URLSession) async throws -> Int {
        let (steps, _) = try await run(in: session, destination: destination) { session.downloadTask(with: url) }
        return steps
    }

    /// Uploads `file` in a POST to `url` with an upload task of `session` (one that
    /// ``makeSession(configuration:)`` made); returns the progress steps and the byte count
    /// the server says it received.
    static func upload(_ file: URL, to url: URL, in session: URLSession) async throws -> (steps: Int, received: Int) {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        let (steps, body) = try await run(in: session, destination: nil) { [request] in session.uploadTask(with: request, fromFile: file) }
        return (steps, try JSONDecoder().decode(Received.self, from: body).bytes)
    }

    private static func run(
        in session: URLSession,
        destination: URL?,
        _ makeTask: @Sendable () -> URLSessionTask
    ) async throws -> (steps: Int, body: Data) {
        guard let delegate = session.delegate as? RawURLSessionProgress else {
            throw TransferContenders.Mismatch(description: "the session's delegate is not a RawURLSessionProgress")
        }
        return try await withCheckedThrowingContinuation { continuation in
            let task = makeTask()
            delegate.transfers.withLock { $0[task.taskIdentifier] = Transfer(continuation: continuation, destination: destination) }
            task.resume()
        }
    }

    // MARK: - URLSession's callbacks

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        transfers.withLock { $0[dataTask.taskIdentifier]?.body.append(data) }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64, totalBytesExpectedToSend: Int64
    ) {
        transfers.withLock { $0[task.taskIdentifier]?.steps += 1 }
    }

    func urlSession(
        _ session: URLSession,
        downloadTask: URLSessionDownloadTask,
        didWriteData bytesWritten: Int64,
        totalBytesWritten: Int64,
        totalBytesExpectedToWrite: Int64
    ) {
        transfers.withLock { $0[downloadTask.taskIdentifier]?.steps += 1 }
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        let destination = transfers.withLock { $0[downloadTask.taskIdentifier]?.destination }
        guard let destination else { return }
        // URLSession removes its file when this returns: move it now.
        do {
            try? FileManager.default.removeItem(at: destination)
            try FileManager.default.moveItem(at: location, to: destination)
        } catch {
            transfers.withLock { $0[downloadTask.taskIdentifier]?.moveFailure = error }
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let failure = error ?? transfer.moveFailure {
            transfer.continuation.resume(throwing: failure)
        } else if let status = (task.response as? HTTPURLResponse)?.statusCode, status == 200 {
            transfer.continuation.resume(returning: (transfer.steps, transfer.body))
        } else {
            transfer.continuation.resume(throwing: TransferContenders.Mismatch(
                description: "raw URLSession with progress answered \(String(describing: task.response))"
            ))
        }
    }
}
