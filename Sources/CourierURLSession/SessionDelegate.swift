import Courier
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// The delegate of a session the transport makes itself: it routes each data task's callbacks
/// to that task's ``DataTaskCollector`` by task identifier, and, on Apple platforms, hands
/// server-trust challenges to the TLS policy's evaluator.
///
/// swift-corelibs-foundation gives data callbacks only to a session's delegate, not to a
/// task's, so a session made by the transport is the way bodies are read as they arrive, and
/// limited, on Linux too.
///
/// `Sendable` without `@unchecked`: a `final class` whose only mutable state sits in a `Mutex`.
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let collectors = Mutex<[Int: DataTaskCollector]>([:])
    #if canImport(Security) && canImport(CryptoKit)
    /// Evaluates server trust for a TLS policy with pins or custom roots, or `nil`.
    let trustEvaluator: ServerTrustEvaluator?

    init(trustEvaluator: ServerTrustEvaluator?) {
        self.trustEvaluator = trustEvaluator
        super.init()
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard let trustEvaluator else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        trustEvaluator.urlSession(session, task: task, didReceive: challenge, completionHandler: completionHandler)
    }
    #endif

    #if canImport(FoundationNetworking)
    /// A 401 asking for HTTP authentication: its response, already here whole, is the
    /// call's answer (see ``AuthenticationChallenges``).
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        collector(for: task)?.challenged()
        AuthenticationChallenges.decline(completionHandler)
    }
    #endif

    /// Routes a task's callbacks to `collector` until the task completes.
    func register(_ collector: DataTaskCollector, for taskIdentifier: Int) {
        collectors.withLock { $0[taskIdentifier] = collector }
    }

    private func collector(for task: URLSessionTask) -> DataTaskCollector? {
        collectors.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let collector = collector(for: dataTask) else {
            completionHandler(.allow)
            return
        }
        collector.urlSession(session, dataTask: dataTask, didReceive: response, completionHandler: completionHandler)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        collector(for: dataTask)?.urlSession(session, dataTask: dataTask, didReceive: data)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        collector(for: task)?.urlSession(
            session, task: task, didSendBodyData: bytesSent, totalBytesSent: totalBytesSent, totalBytesExpectedToSend: totalBytesExpectedToSend
        )
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let collector = collectors.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        collector?.urlSession(session, task: task, didCompleteWithError: error)
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
