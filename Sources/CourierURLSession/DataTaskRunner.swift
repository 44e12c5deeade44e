import Courier
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// Runs one data task, cancelling it when the calling task is cancelled.
///
/// The body is gathered by a ``DataTaskCollector`` as it arrives, within the call's
/// ``Courier/RequestOptions/maxResponseBytes``: routed to it by the transport's own
/// ``SessionDelegate``, or, for an injected session on Apple platforms, as the task's delegate.
/// swift-corelibs-foundation calls no task delegate for data, so an injected session on Linux
/// gets a completion handler, and the limit is checked when the whole body is there.
///
/// The start-versus-cancel race is closed by a small state machine behind a `Mutex`:
/// a cancellation that arrives before the task starts marks the state, and the task is then
/// never resumed.
enum DataTaskRunner {
    /// Runs the request.
    /// - Parameters:
    ///   - request: The request.
    ///   - session: The session that runs it.
    ///   - router: The session's delegate, when the transport made the session.
    ///   - limit: The most body bytes to hold, or `nil`.
    ///   - redirects: The task delegate that hands redirects back instead of following them.
    ///   - trustFailures: Where the session's trust evaluator records why it refused a server;
    ///     such a failure replaces the `URLError.cancelled` URLSession reports.
    /// - Returns: The body and the response.
    /// - Throws: A ``Courier/CourierError``.
    static func run(
        _ request: URLRequest,
        in session: URLSession,
        router: SessionDelegate?,
        limit: Int?,
        redirects: RedirectRefuser,
        trustFailures: ServerTrustFailureLog? = nil
    ) async throws -> (Data, URLResponse) {
        let state = TaskState()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task: URLSessionDataTask
                #if canImport(FoundationNetworking)
                let gathersAsItArrives = router != nil
                #else
                let gathersAsItArrives = true
                #endif
                if gathersAsItArrives {
                    let collector = DataTaskCollector(limit: limit, trustFailures: trustFailures) { continuation.resume(with: $0) }
                    task = session.dataTask(with: request)
                    if let router {
                        router.register(collector, for: task.taskIdentifier)
                    } else {
                        task.delegate = collector
                    }
                } else {
                    task = session.dataTask(with: request) { data, response, error in
                        let trustFailure = state.taskIdentifier.flatMap { trustFailures?.take(forTask: $0) }
                        if let trustFailure {
                            continuation.resume(throwing: trustFailure)
                        } else if let error {
                            continuation.resume(throwing: URLErrorMapping.map(error))
                        } else if let response {
                            let body = data ?? Data()
                            if let limit, body.count > limit {
                                continuation.resume(throwing: CourierError(
                                    code: .responseTooLarge, message: "the response body is larger than the limit of \(limit) bytes"
                                ))
                            } else {
                                continuation.resume(returning: (body, response))
                            }
                        } else {
                            continuation.resume(throwing: CourierError(code: .invalidResponse, message: "URLSession returned no response"))
                        }
                    }
                    task.delegate = redirects
                }
                if state.start(task) {
                    task.resume()
                } else {
                    task.cancel()
                    task.resume()
                }
            }
        } onCancel: {
            state.cancel()
        }
    }
}

/// Whether a data task has started or been cancelled.
///
/// A `final class` whose only state sits in a `Mutex`, which makes it `Sendable`.
private final class TaskState: Sendable {
    private enum Phase {
        case waiting
        case running(URLSessionDataTask)
        case cancelled
    }

    private let phase = Mutex<Phase>(.waiting)
    private let identifier = Mutex<Int?>(nil)

    /// The task's `taskIdentifier`, once ``start(_:)`` has seen the task.
    var taskIdentifier: Int? { identifier.withLock { $0 } }

    /// Records the task; returns `false` if the call was already cancelled.
    func start(_ task: URLSessionDataTask) -> Bool {
        identifier.withLock { $0 = task.taskIdentifier }
        return phase.withLock { phase in
            if case .cancelled = phase { return false }
            phase = .running(task)
            return true
        }
    }

    /// Cancels the task if it is running, or marks the call cancelled before it starts.
    func cancel() {
        let task: URLSessionDataTask? = phase.withLock { phase in
            defer { phase = .cancelled }
            if case .running(let task) = phase { return task }
            return nil
        }
        task?.cancel()
    }
}

/// Maps `URLError` codes to ``Courier/CourierError`` codes.
enum URLErrorMapping {
    static func map(_ error: any Error) -> any Error {
        guard let urlError = error as? URLError else {
            return CourierError(code: .transportFailed, message: "the transport failed", underlying: error)
        }
        let code: CourierError.Code
        switch urlError.code {
        case .cancelled: code = .cancelled
        case .timedOut: code = .timedOut
        case .notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff: code = .offline
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed: code = .cannotConnect
        case .networkConnectionLost: code = .connectionLost
        case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData: code = .invalidResponse
        case .badURL, .unsupportedURL: code = .invalidRequest
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
             .clientCertificateRequired:
            code = .tlsFailure
        case .unknown where urlError.localizedDescription.hasPrefix("transfer closed"):
            // swift-corelibs-foundation reports libcurl's CURLE_PARTIAL_FILE (the connection
            // closed before Content-Length bytes arrived) as NSURLErrorUnknown with this text.
            code = .connectionLost
        case .unknown where urlError.localizedDescription.contains("SSL"):
            // swift-corelibs-foundation reports libcurl's TLS errors (such as "SSL certificate
            // problem: unable to get local issuer certificate") as NSURLErrorUnknown too.
            code = .tlsFailure
        default: code = .transportFailed
        }
        return CourierError(code: code, message: "URLSession failed: \(urlError.code.rawValue)", underlying: urlError)
    }
}
