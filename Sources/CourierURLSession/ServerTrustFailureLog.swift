import Courier
import Synchronization

/// The TLS failures a session's trust evaluator recorded, by task, until the task's
/// completion handler collects them.
///
/// When the evaluator refuses a server (untrusted chain, no pinned key), it can only cancel
/// the authentication challenge, and URLSession then reports a plain `URLError.cancelled`.
/// The evaluator records the real reason here, and ``DataTaskRunner`` swaps it in, so the
/// caller sees `CourierError.Code.tlsFailure` rather than a cancellation.
///
/// `Sendable` without `@unchecked`: a `final class` whose only state sits in a `Mutex`.
final class ServerTrustFailureLog: Sendable {
    private let failures = Mutex<[Int: CourierError]>([:])

    /// Records why the server of a task was refused.
    /// - Parameters:
    ///   - failure: The error to report, with code `CourierError.Code.tlsFailure`.
    ///   - taskIdentifier: The task's `taskIdentifier`, unique within its session.
    func record(_ failure: CourierError, forTask taskIdentifier: Int) {
        failures.withLock { $0[taskIdentifier] = failure }
    }

    /// Removes and returns the failure recorded for a task, if any.
    /// - Parameter taskIdentifier: The task's `taskIdentifier`.
    /// - Returns: The recorded failure.
    func take(forTask taskIdentifier: Int) -> CourierError? {
        failures.withLock { $0.removeValue(forKey: taskIdentifier) }
    }
}
