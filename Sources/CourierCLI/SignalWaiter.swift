import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Waits for SIGINT or SIGTERM, so `serve` can stop its server gracefully.
enum SignalWaiter {
    static func waitForInterrupt() async {
        let sources = [SIGINT, SIGTERM].map { signalNumber in
            signal(signalNumber, SIG_IGN)
            return DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = ResumeOnce(continuation)
            for source in sources {
                source.setEventHandler { once.resume() }
                source.resume()
            }
        }
        for source in sources { source.cancel() }
    }
}

/// Resumes a continuation at most once, whichever signal comes first.
///
/// A `final class` whose state sits in a `Mutex`, which makes it `Sendable`.
private final class ResumeOnce: Sendable {
    private let continuation: Mutex<CheckedContinuation<Void, Never>?>

    init(_ continuation: CheckedContinuation<Void, Never>) {
        self.continuation = Mutex(continuation)
    }

    func resume() {
        continuation.withLock { $0.take() }?.resume()
    }
}
