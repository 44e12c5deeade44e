import Courier
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// Gathers one data task's body as it arrives, within a byte limit, and hands back the
/// outcome once; declines redirects.
///
/// A body whose `Content-Length` is past the limit is refused with its head, before any of it
/// is read; one that grows past the limit as it arrives stops there. Either way the caller
/// gets ``Courier/CourierError/Code/responseTooLarge`` and at most `limit` bytes were held.
///
/// `Sendable` without `@unchecked`: a `final class` whose mutable state sits in a `Mutex`.
final class DataTaskCollector: NSObject, URLSessionDataDelegate, Sendable {
    typealias Outcome = Result<(Data, URLResponse), any Error>

    private struct State {
        var data = Data()
        var response: URLResponse?
        var finish: (@Sendable (Outcome) -> Void)?
    }

    private let state: Mutex<State>
    /// The most body bytes held, or `nil` for no limit.
    let limit: Int?
    /// Where the session's trust evaluator records refusals; such a failure replaces the
    /// cancellation URLSession reports.
    let trustFailures: ServerTrustFailureLog?

    /// Makes a collector.
    /// - Parameters:
    ///   - limit: The most body bytes held.
    ///   - trustFailures: Where TLS refusals are recorded.
    ///   - finish: Called once, with the body and response or the failure.
    init(limit: Int?, trustFailures: ServerTrustFailureLog?, finish: @escaping @Sendable (Outcome) -> Void) {
        self.limit = limit
        self.trustFailures = trustFailures
        self.state = Mutex(State(finish: finish))
        super.init()
    }

    /// Hands on the outcome, the first time only.
    func complete(_ outcome: Outcome) {
        let finish = state.withLock { state -> (@Sendable (Outcome) -> Void)? in
            defer { state.finish = nil; state.data = Data() }
            return state.finish
        }
        finish?(outcome)
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
        // A HEAD's, a 204's or a 304's Content-Length describes a body that does not come.
        let hasNoBody = dataTask.originalRequest?.httpMethod == "HEAD"
            || [204, 304].contains((response as? HTTPURLResponse)?.statusCode ?? 0)
        if let limit, !hasNoBody, response.expectedContentLength > Int64(limit) {
            complete(.failure(tooLarge("Content-Length \(response.expectedContentLength)")))
            completionHandler(.cancel)
            return
        }
        state.withLock { $0.response = response }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let exceeded = state.withLock { state -> Bool in
            guard state.finish != nil else { return false }
            if let limit, state.data.count + data.count > limit { return true }
            state.data.append(data)
            return false
        }
        guard exceeded else { return }
        complete(.failure(tooLarge("it grew past the limit as it arrived")))
        // swift-corelibs-foundation ignores a cancel from inside this callback; from another
        // queue it stops the transfer.
        DispatchQueue.global().async { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let failure = trustFailures?.take(forTask: task.taskIdentifier) {
            complete(.failure(failure))
            return
        }
        if let error {
            complete(.failure(URLErrorMapping.map(error)))
            return
        }
        let (data, response) = state.withLock { ($0.data, $0.response ?? task.response) }
        guard let response else {
            complete(.failure(CourierError(code: .invalidResponse, message: "URLSession returned no response")))
            return
        }
        complete(.success((data, response)))
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
