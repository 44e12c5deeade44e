import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionTask {
    /// Cancels the task from another queue. swift-corelibs-foundation ignores a cancel made
    /// inside a delegate callback, and its `cancel()` waits on the session's work queue, where
    /// the transport's own session runs its delegate calls (``InlineDelegateQueue``); from
    /// another queue it stops the transfer.
    func cancelFromAnotherQueue() {
        DispatchQueue.global().async { self.cancel() }
    }
}
