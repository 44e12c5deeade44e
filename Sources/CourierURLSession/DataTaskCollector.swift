import Courier
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// What a data task hands back once its head has arrived.
enum TaskOutcome: Sendable {
    /// The whole body, gathered before the call returns: a small body of known length, or none.
    case whole(Data, URLResponse)
    /// The head; the body streams in as it arrives.
    case streaming(URLResponse, ResponseStream)
}

/// Receives one data task's callbacks: hands back its head once, then gathers or streams its
/// body within a byte limit; declines redirects.
///
/// A body whose `Content-Length` is past the limit is refused with its head, before any of it
/// is read. A body of known length up to ``URLSessionTransport/eagerBodyLimit`` is gathered
/// whole before the head is handed back (one hand-over for a typical JSON answer); any other
/// body is handed on as a ``ResponseStream`` as soon as the head is there. Either way a body
/// that grows past the limit stops there with `CourierError.Code.responseTooLarge`,
/// and at most `limit` bytes were held.
///
/// `Sendable` without `@unchecked`: a `final class` whose mutable state sits in a `Mutex`.
final class DataTaskCollector: NSObject, URLSessionDataDelegate, Sendable {
    typealias Outcome = Result<TaskOutcome, any Error>

    private struct State {
        var data = Data()
        var response: URLResponse?
        var finish: (@Sendable (Outcome) -> Void)?
        /// The body, once it streams.
        var stream: ResponseStream?
        /// Runs once when the task completes (removes its deadline).
        var onEnd: (@Sendable () -> Void)?
    }

    private let state: Mutex<State>
    /// The most body bytes held, or `nil` for no limit.
    let limit: Int?
    /// Where the session's trust evaluator records refusals; such a failure replaces the
    /// cancellation URLSession reports.
    let trustFailures: ServerTrustFailureLog?
    /// Told the running total of body bytes sent, for an upload from a file.
    let sentBytes: (@Sendable (Int64) -> Void)?

    /// Makes a collector.
    /// - Parameters:
    ///   - limit: The most body bytes held.
    ///   - trustFailures: Where TLS refusals are recorded.
    ///   - sentBytes: Told the running total of body bytes sent.
    ///   - finish: Called once, with the head (and whole body) or the failure.
    init(
        limit: Int?,
        trustFailures: ServerTrustFailureLog?,
        sentBytes: (@Sendable (Int64) -> Void)? = nil,
        finish: @escaping @Sendable (Outcome) -> Void
    ) {
        self.limit = limit
        self.trustFailures = trustFailures
        self.sentBytes = sentBytes
        self.state = Mutex(State(finish: finish))
        super.init()
    }

    /// Sets what runs once when the task completes; call before the task is resumed.
    func onEnd(_ action: @escaping @Sendable () -> Void) {
        state.withLock { $0.onEnd = action }
    }

    /// Hands on the outcome, the first time only.
    func complete(_ outcome: Outcome) {
        let finish = state.withLock { state -> (@Sendable (Outcome) -> Void)? in
            defer { state.finish = nil; state.data = Data() }
            return state.finish
        }
        finish?(outcome)
    }

    /// The deadline passed: the call, or its body if it already streams, fails with `error`,
    /// and the task is cancelled.
    func expire(_ task: URLSessionTask, with error: CourierError) {
        enum Step { case stream(ResponseStream), call((@Sendable (Outcome) -> Void)?) }
        // One decision under the lock: a head that arrives at the same moment either finds the
        // call already failed (and cancels) or has handed out its stream (which is aborted).
        let step = state.withLock { state -> Step in
            if let stream = state.stream { return .stream(stream) }
            defer { state.finish = nil; state.data = Data() }
            return .call(state.finish)
        }
        switch step {
        case .stream(let stream):
            stream.abort(error)
        case .call(let finish):
            finish?(.failure(error))
            task.cancel()
        }
    }

    /// swift-corelibs-foundation raised an HTTP authentication challenge, which it does once the
    /// whole response has arrived (see ``AuthenticationChallenges``): that response is the
    /// answer. A body still being gathered is handed on whole; a streaming one ends here.
    func challenged() {
        enum Step { case stream(ResponseStream), call((@Sendable (Outcome) -> Void)?, Data, URLResponse?) }
        let step = state.withLock { state -> Step in
            if let stream = state.stream { return .stream(stream) }
            defer { state.finish = nil; state.data = Data() }
            return .call(state.finish, state.data, state.response)
        }
        switch step {
        case .stream(let stream):
            stream.finish(nil)
        case .call(let finish, let data, let response):
            guard let response else {
                finish?(.failure(CourierError(code: .invalidResponse, message: "URLSession asked for credentials before any response")))
                return
            }
            finish?(.success(.whole(data, response)))
        }
    }

    private func tooLarge(_ detail: String) -> CourierError {
        CourierError(code: .responseTooLarge, message: "the response body is larger than the limit of \(limit ?? 0) bytes (\(detail))")
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        let status = http?.statusCode ?? 0
        // An informational head (103 Early Hints, a 100 Continue libcurl passes on) comes
        // before the final one, which answers the call: let it go by.
        if (100..<200).contains(status), status != 101 {
            completionHandler(.allow)
            return
        }
        // A HEAD's, a 204's or a 304's Content-Length describes a body that does not come.
        let hasNoBody = dataTask.originalRequest?.httpMethod == "HEAD" || status == 204 || status == 304
        let length = response.expectedContentLength
        if let limit, !hasNoBody, length > Int64(limit) {
            complete(.failure(tooLarge("Content-Length \(length)")))
            refuse(dataTask, completionHandler)
            return
        }
        // A compressed body's Content-Length counts the bytes before URLSession decodes them.
        let encoded = http?.value(forHTTPHeaderField: "Content-Encoding").map {
            !$0.isEmpty && $0.lowercased() != "identity"
        } ?? false
        let gathers = hasNoBody || (!encoded && length >= 0 && length <= Int64(URLSessionTransport.eagerBodyLimit))
        let stream = gathers ? nil : ResponseStream(task: dataTask, limit: limit)
        enum Step { case proceed((@Sendable (Outcome) -> Void)?), refuse(previous: ResponseStream?) }
        let step = state.withLock { state -> Step in
            // A second head for one task (multipart/x-mixed-replace, or a restart) is not
            // something a call can answer; and a call that already ended (its deadline) takes
            // no head.
            if state.response != nil || state.stream != nil { return .refuse(previous: state.stream) }
            guard state.finish != nil else { return .refuse(previous: nil) }
            state.response = response
            guard let stream else { return .proceed(nil) }
            state.stream = stream
            defer { state.finish = nil }
            return .proceed(state.finish)
        }
        switch step {
        case .proceed(let finish):
            if let stream { finish?(.success(.streaming(response, stream))) }
            completionHandler(.allow)
        case .refuse(let previous):
            let error = CourierError(code: .invalidResponse, message: "the server sent a second response head for one request")
            previous?.finish(error)
            complete(.failure(error))
            refuse(dataTask, completionHandler)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        enum Step { case none, streamed(ResponseStream), exceeded }
        let step = state.withLock { state -> Step in
            if let stream = state.stream { return .streamed(stream) }
            guard state.finish != nil else { return .none }
            if let limit, state.data.count + data.count > limit { return .exceeded }
            state.data.append(data)
            return .none
        }
        switch step {
        case .none:
            return
        case .streamed(let stream):
            if !stream.append(data) { dataTask.cancelFromAnotherQueue() }
        case .exceeded:
            complete(.failure(tooLarge("it grew past the limit as it arrived")))
            dataTask.cancelFromAnotherQueue()
        }
    }

    /// Stops a task whose head was refused. swift-corelibs-foundation ignores the
    /// disposition (the body would go on arriving, unread, to its end), so the task is also
    /// cancelled.
    private func refuse(_ task: URLSessionDataTask, _ completionHandler: @Sendable (URLSession.ResponseDisposition) -> Void) {
        completionHandler(.cancel)
        #if canImport(FoundationNetworking)
        task.cancelFromAnotherQueue()
        #endif
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        sentBytes?(totalBytesSent)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (stream, onEnd) = state.withLock { state in
            defer { state.onEnd = nil }
            return (state.stream, state.onEnd)
        }
        onEnd?()
        let failure: (any Error)?
        if let trustFailure = trustFailures?.take(forTask: task.taskIdentifier) {
            failure = trustFailure
        } else {
            failure = error.map(URLErrorMapping.map)
        }
        if let stream {
            stream.finish(failure)
            return
        }
        if let failure {
            complete(.failure(failure))
            return
        }
        let (data, response) = state.withLock { ($0.data, $0.response ?? task.response) }
        guard let response else {
            complete(.failure(CourierError(code: .invalidResponse, message: "URLSession returned no response")))
            return
        }
        complete(.success(.whole(data, response)))
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
