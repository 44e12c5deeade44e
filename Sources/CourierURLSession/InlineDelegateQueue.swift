#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking

/// The delegate queue of a session the transport makes on Linux: it runs each delegate call
/// at once, on the thread that submits it, instead of as an operation on a queue of its own.
///
/// swift-corelibs-foundation submits every delegate call and completion handler with
/// `addOperation(_:)` (a block), from the session's serial work queue, holding no lock. An
/// `OperationQueue` then makes an operation of each and runs it on another thread: for a small
/// JSON answer that is three operations and three hand-overs between threads (head, body,
/// completion): about 36 µs of the client's CPU per request at 32 in flight (`courier bench
/// --only throughput --server URL`). Run inline, the calls keep the order the work queue gives
/// them, as a serial queue would.
///
/// What this asks of the code that runs there: nothing that waits (swift-corelibs-foundation
/// runs the work of every session in the process on one serial queue, so a delegate call that
/// waits stalls them all), and above all nothing that waits on the session's work queue.
/// swift-corelibs-foundation's `URLSessionTask.cancel()`, `suspend()` and `resume()`, and
/// making a task on the session, each do a synchronous dispatch onto that queue, which would
/// deadlock. The transport's delegates cancel from another queue, and report progress
/// through an `AsyncStream`, so no caller's code runs on the work queue.
///
/// Operations added as `Operation` objects (swift-corelibs-foundation adds none) run as an
/// ordinary serial queue runs them.
///
/// `@unchecked Sendable` restates, as the compiler requires of a subclass, the conformance
/// `OperationQueue` declares in swift-corelibs-foundation, whose state sits behind the queue's
/// own lock; this subclass adds no stored state.
final class InlineDelegateQueue: OperationQueue, @unchecked Sendable {
    override init() {
        super.init()
        name = "courier.urlsession.delegate"
        maxConcurrentOperationCount = 1
    }

    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        block()
    }
}
#endif
