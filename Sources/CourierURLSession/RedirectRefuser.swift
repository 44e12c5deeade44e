import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A task delegate that declines every redirect, so URLSession hands the 3xx back and
/// Courier's `RedirectStage` decides: credentials and bodies stay with their origin, https
/// never goes to http, and the hop limit holds, as on every transport.
///
/// It is set on each data task (`URLSessionTask.delegate`), so it applies to an injected
/// session too, whatever that session's own delegate does. swift-corelibs-foundation honours
/// task delegates for redirects as Apple platforms do.
///
/// `Sendable` without `@unchecked`: a `final class` with no stored state.
final class RedirectRefuser: NSObject, URLSessionTaskDelegate, Sendable {
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
