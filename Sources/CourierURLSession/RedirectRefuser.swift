import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// A task delegate that declines every redirect, so URLSession hands the 3xx back and
/// Courier's `RedirectStage` decides: credentials and bodies stay with their origin, https
/// never goes to http, and the hop limit holds, as on every transport.
///
/// It is set on each data task (`URLSessionTask.delegate`), so it applies to an injected
/// session too, whatever that session's own delegate does. swift-corelibs-foundation honours
/// task delegates for redirects as Apple platforms do.
///
/// On Linux it also ends a task that swift-corelibs-foundation holds on an HTTP
/// authentication challenge (see ``AuthenticationChallenges``), keeping the head it had
/// answered for ``takeChallengedHead(forTask:)``: a task with a completion handler gets no
/// response and no body once cancelled, so the call answers with that head and no body.
///
/// `Sendable` without `@unchecked`: a `final class` whose only mutable state sits in a `Mutex`.
final class RedirectRefuser: NSObject, URLSessionTaskDelegate, Sendable {
    #if canImport(FoundationNetworking)
    /// The heads of challenged tasks, by task identifier, until their completion takes them.
    private let challengedHeads = Mutex<[Int: URLResponse]>([:])

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        if let head = task.response { challengedHeads.withLock { $0[task.taskIdentifier] = head } }
        AuthenticationChallenges.decline(completionHandler)
    }

    /// The head of a task this delegate ended on an authentication challenge, once.
    func takeChallengedHead(forTask taskIdentifier: Int) -> URLResponse? {
        challengedHeads.withLock { $0.removeValue(forKey: taskIdentifier) }
    }
    #endif

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
