import Courier
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// Runs one data task, cancelling it when the calling task is cancelled or its deadline passes.
///
/// The head comes back through a ``DataTaskCollector`` (routed to it by the transport's own
/// ``SessionDelegate``, or, for an injected session on Apple platforms, as the task's
/// delegate), with the body gathered or streaming within the call's
/// `RequestOptions.maxResponseBytes`. swift-corelibs-foundation calls no task
/// delegate for data, so an injected session on Linux gets a completion handler: the body
/// comes whole, and the limit is checked when it is all there.
///
/// The deadline goes to the transport's ``DeadlineTimer``: no task or timer of its own.
///
/// The start-versus-cancel race is closed by a small state machine behind a `Mutex`:
/// a cancellation that arrives before the task starts marks the state, and the task is then
/// never resumed.
enum DataTaskRunner {
    /// Runs the request.
    /// - Parameters:
    ///   - request: The request.
    ///   - file: The file an upload task sends from disk as the body; `nil` when the body, if
    ///     any, is in the request (its bytes, or on Linux a stream of the file's).
    ///   - sentBytes: Told the running total of body bytes sent, or `nil`.
    ///   - session: The session that runs it.
    ///   - router: The session's delegate, when the transport made the session.
    ///   - limit: The most body bytes to hold, or `nil`.
    ///   - deadline: When the whole exchange, body included, must be over; `nil` for none.
    ///   - deadlines: The transport's timer for deadlines.
    ///   - redirects: The task delegate that hands redirects back instead of following them.
    ///   - trustFailures: Where the session's trust evaluator records why it refused a server;
    ///     such a failure replaces the `URLError.cancelled` URLSession reports.
    /// - Returns: The head, with the body whole or streaming.
    /// - Throws: A `CourierError`.
    static func run(
        _ request: URLRequest,
        uploading file: URL? = nil,
        sentBytes: (@Sendable (Int64) -> Void)? = nil,
        in session: URLSession,
        router: SessionDelegate?,
        limit: Int?,
        deadline: ContinuousClock.Instant?,
        deadlines: DeadlineTimer,
        redirects: RedirectRefuser,
        trustFailures: ServerTrustFailureLog? = nil
    ) async throws -> TaskOutcome {
        let state = TaskState()
        return try await withTaskCancellationHandler {
            // Resumed exactly once: by the collector, which hands its outcome on once under its
            // lock, or by `TaskState`, likewise. So an unsafe continuation, which spares the
            // checked one's allocation on every request.
            try await withUnsafeThrowingContinuation { continuation in
                let task: URLSessionDataTask
                #if canImport(FoundationNetworking)
                let gathersAsItArrives = router != nil
                #else
                let gathersAsItArrives = true
                #endif
                if gathersAsItArrives {
                    let collector = DataTaskCollector(limit: limit, trustFailures: trustFailures, sentBytes: sentBytes) {
                        continuation.resume(with: $0)
                    }
                    task = file.map { session.uploadTask(with: request, fromFile: $0) } ?? session.dataTask(with: request)
                    if let router {
                        router.register(collector, for: task.taskIdentifier)
                    } else {
                        task.delegate = collector
                    }
                    if let deadline {
                        let token = deadlines.add(deadline) { [task] in collector.expire(task, with: timedOut()) }
                        collector.onEnd { deadlines.remove(token) }
                    }
                } else {
                    state.hold(continuation)
                    let token = deadline.map { deadline in
                        deadlines.add(deadline) { [state] in
                            state.resume(throwing: timedOut())
                            state.cancel()
                        }
                    }
                    let completion: @Sendable (Data?, URLResponse?, (any Error)?) -> Void = { data, response, error in
                        if let token { deadlines.remove(token) }
                        let trustFailure = state.taskIdentifier.flatMap { trustFailures?.take(forTask: $0) }
                        #if canImport(FoundationNetworking)
                        // A 401 that `redirects` ended on an authentication challenge:
                        // its head is the answer; its body is lost with the cancel.
                        let challengedHead = state.taskIdentifier.flatMap { redirects.takeChallengedHead(forTask: $0) }
                        #else
                        let challengedHead: URLResponse? = nil
                        #endif
                        if let trustFailure {
                            state.resume(throwing: trustFailure)
                        } else if let challengedHead {
                            state.resume(returning: .whole(Data(), challengedHead))
                        } else if let error {
                            state.resume(throwing: URLErrorMapping.map(error))
                        } else if let response {
                            let body = data ?? Data()
                            if let limit, body.count > limit {
                                state.resume(throwing: CourierError(
                                    code: .responseTooLarge, message: "the response body is larger than the limit of \(limit) bytes"
                                ))
                            } else {
                                state.resume(returning: .whole(body, response))
                            }
                        } else {
                            state.resume(throwing: CourierError(code: .invalidResponse, message: "URLSession returned no response"))
                        }
                    }
                    if let file {
                        task = session.uploadTask(with: request, fromFile: file, completionHandler: completion)
                    } else {
                        task = session.dataTask(with: request, completionHandler: completion)
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

    /// The error of an attempt whose deadline passed.
    static func timedOut() -> CourierError {
        CourierError(code: .timedOut, message: "the request did not finish before its deadline")
    }
}

/// Whether a data task has started or been cancelled, and, for a task with a completion
/// handler, the call's continuation, resumed at most once by whichever of the handler and the
/// deadline comes first.
///
/// A `final class` whose only state sits in a `Mutex`, which makes it `Sendable`.
private final class TaskState: Sendable {
    private enum Phase {
        case waiting
        case running(URLSessionDataTask)
        case cancelled
    }

    private struct State {
        var phase = Phase.waiting
        var taskIdentifier: Int?
        var continuation: UnsafeContinuation<TaskOutcome, any Error>?
    }

    private let state = Mutex(State())

    /// The task's `taskIdentifier`, once ``start(_:)`` has seen the task.
    var taskIdentifier: Int? { state.withLock { $0.taskIdentifier } }

    /// Keeps the continuation that ``resume(returning:)`` or ``resume(throwing:)`` resumes.
    func hold(_ continuation: UnsafeContinuation<TaskOutcome, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    /// Resumes the held continuation with `value`, unless it was resumed already.
    func resume(returning value: TaskOutcome) {
        takeContinuation()?.resume(returning: value)
    }

    /// Resumes the held continuation with `error`, unless it was resumed already.
    func resume(throwing error: any Error) {
        takeContinuation()?.resume(throwing: error)
    }

    private func takeContinuation() -> UnsafeContinuation<TaskOutcome, any Error>? {
        state.withLock { state in
            defer { state.continuation = nil }
            return state.continuation
        }
    }

    /// Records the task; returns `false` if the call was already cancelled.
    func start(_ task: URLSessionDataTask) -> Bool {
        state.withLock { state in
            state.taskIdentifier = task.taskIdentifier
            if case .cancelled = state.phase { return false }
            state.phase = .running(task)
            return true
        }
    }

    /// Cancels the task if it is running, or marks the call cancelled before it starts.
    func cancel() {
        let task: URLSessionDataTask? = state.withLock { state in
            defer { state.phase = .cancelled }
            if case .running(let task) = state.phase { return task }
            return nil
        }
        task?.cancel()
    }
}

/// The texts of `NSURLErrorUnknown` failures, libcurl's and swift-corelibs-foundation's,
/// that mean the response's head could not be read.
enum ResponseParseFailure {
    /// `CURLE_WRITE_ERROR` from the header callback (swift-corelibs-foundation refused a line),
    /// a NUL byte, libcurl's "weird server reply", and the out-of-memory error libcurl gives for
    /// a header line past its limit.
    static let texts = ["Failed writing header", "Nul byte in header", "Weird server reply", "Header without colon", "Out of memory"]

    static func matches(_ description: String) -> Bool {
        texts.contains { description.hasPrefix($0) }
    }
}

/// Maps `URLError` codes to `CourierError` codes.
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
        case .badServerResponse, .cannotParseResponse: code = .invalidResponse
        case .cannotDecodeRawData, .cannotDecodeContentData: code = .contentDecodingFailed
        case .unsupportedURL where ["http", "https"].contains(urlError.failingURL?.scheme?.lowercased()):
            // libcurl's CURLE_UNSUPPORTED_PROTOCOL for an http(s) URL is about the answer: not
            // HTTP at all ("Received HTTP/0.9 when not allowed"), or a status line past 999.
            code = .invalidResponse
        case .badURL, .unsupportedURL: code = .invalidRequest
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
             .clientCertificateRequired:
            code = .tlsFailure
        case .unknown where urlError.localizedDescription.hasPrefix("transfer closed"):
            // swift-corelibs-foundation reports libcurl's CURLE_PARTIAL_FILE (the connection
            // closed before Content-Length bytes arrived) as NSURLErrorUnknown with this text.
            code = .connectionLost
        case .unknown where urlError.localizedDescription.contains("content unencoding")
            || urlError.localizedDescription.hasPrefix("Unrecognized or bad HTTP Content"):
            // …and libcurl's CURLE_BAD_CONTENT_ENCODING, for a body that is not its coding
            // ("Error while processing content unencoding: incorrect header check") or in a
            // coding libcurl does not know ("Unrecognized or bad HTTP Content or Transfer-Encoding").
            code = .contentDecodingFailed
        case .unknown where ResponseParseFailure.matches(urlError.localizedDescription):
            // …and a head libcurl or swift-corelibs-foundation could not read: a header line
            // without a colon or with a NUL byte, a status line with no reason phrase after
            // its code, a header too large to hold.
            code = .invalidResponse
        case .unknown where urlError.localizedDescription.contains("SSL"):
            // swift-corelibs-foundation reports libcurl's TLS errors (such as "SSL certificate
            // problem: unable to get local issuer certificate") as NSURLErrorUnknown too.
            code = .tlsFailure
        default: code = .transportFailed
        }
        let detail = "URLSession failed: \(urlError.code.rawValue)"
        let message = code == .invalidResponse ? "the response was not valid HTTP (\(detail))" : detail
        var failure = CourierError(code: code, message: message, underlying: urlError)
        failure.neverProcessed = neverProcessed(urlError.code)
        failure.failedBeforeResponse = failure.neverProcessed
        return failure
    }

    /// Whether URLSession's failure means the request never reached a server: no connection
    /// was made (refused, no such host, no network). URLSession reports neither a refused HTTP/2
    /// stream nor a `GOAWAY` on its own (it retries those itself where it can), and a time-out
    /// may have come after the request went out, so nothing else counts.
    static func neverProcessed(_ code: URLError.Code) -> Bool {
        switch code {
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff:
            return true
        default:
            return false
        }
    }
}
