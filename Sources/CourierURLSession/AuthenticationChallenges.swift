#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking

/// How the transport answers an HTTP authentication challenge on Linux.
///
/// For a 401 whose `WWW-Authenticate` names a scheme libcurl knows, such as Basic or
/// Digest, swift-corelibs-foundation raises an authentication challenge once the whole
/// response (head and body) has reached the delegate. Answered with default handling and no
/// credential, it never completes the task: the call would wait for its deadline and fail
/// with `timedOut`, retried as such, where AsyncHTTPClient hands back the 401 at once.
///
/// Courier answers no challenge with a credential: its own `AuthStage` signs requests, and a
/// 401 is an answer for the chain (a token refresh, or an error with the server's body). So
/// the transport's delegates hand on the response they already have, then cancel the
/// challenge, which ends the task. The cancel is made from another queue: from the session's
/// work queue, where the transport's own session runs its delegate calls
/// (``InlineDelegateQueue``), `cancel()` would wait on that queue.
///
/// Apple platforms deliver such a response as any other when the delegate asks for default
/// handling, so this is Linux only.
enum AuthenticationChallenges {
    /// Cancels the challenge, and with it the task, from another queue.
    static func decline(_ completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        DispatchQueue.global().async { completionHandler(.cancelAuthenticationChallenge, nil) }
    }
}
#endif
