import Synchronization

/// Turns byte counts from a transfer's attempts into the monotonic ``TransferProgress``
/// sequence a ``Transfer`` hands out.
///
/// It keeps a high-water mark: an attempt that starts again from zero (a retried upload, a
/// download restarted from scratch) reports nothing until it passes what was reported
/// before, unless the total changes, which makes it a different transfer. Values are
/// reported at most every ``step`` bytes, and always at the end, so a fast transfer does not
/// wake its observer for every chunk. The stream keeps only the newest values when nobody
/// reads it, so an unobserved transfer holds no backlog.
///
/// A `final class` whose state sits in a `Mutex`, which makes it `Sendable`; values are
/// yielded while the lock is held, so observers see them in order.
final class ProgressReporter: Sendable {
    private struct State {
        var completed: Int64 = 0
        var total: Int64?
        var lastReported: Int64 = -1
        var finished = false
    }

    /// The values, for ``Transfer/progress``.
    let stream: AsyncStream<TransferProgress>
    private let continuation: AsyncStream<TransferProgress>.Continuation
    private let state: Mutex<State>

    /// Makes a reporter.
    /// - Parameter total: The transfer's size, when known before it starts.
    init(total: Int64? = nil) {
        (stream, continuation) = AsyncStream.makeStream(of: TransferProgress.self, bufferingPolicy: .bufferingNewest(16))
        state = Mutex(State(total: total))
    }

    /// The fewest new bytes worth a report: a thousandth of the total, at least 16 KiB
    /// (256 KiB while the total is unknown).
    private static func step(total: Int64?) -> Int64 {
        guard let total else { return 256 << 10 }
        return max(16 << 10, total / 1_000)
    }

    /// Sets the total once the transfer learns it (a download's first response). A total
    /// other than the one known so far starts the count afresh.
    func setTotal(_ total: Int64?) {
        state.withLock { state in
            guard state.total != total else { return }
            let overshoots = total.map { state.completed > $0 } ?? false
            if state.total != nil || overshoots {
                state.completed = 0
                state.lastReported = -1
            }
            state.total = total
        }
    }

    /// Records that an attempt has done `bytes` bytes.
    func advance(to bytes: Int64) {
        state.withLock { state in
            guard !state.finished, bytes > state.completed else { return }
            state.completed = bytes
            let atEnd = state.total.map { bytes >= $0 } ?? false
            if atEnd || bytes - state.lastReported >= Self.step(total: state.total) {
                report(&state)
            }
        }
    }

    /// Reports the final value, every byte done, and ends the sequence.
    /// - Parameter bytes: The transfer's size, now that it is complete.
    func complete(bytes: Int64) {
        state.withLock { state in
            guard !state.finished else { return }
            let alreadyReported = state.lastReported == bytes && state.total == bytes
            state.completed = bytes
            state.total = bytes
            if !alreadyReported { report(&state) }
            state.finished = true
        }
        continuation.finish()
    }

    /// Ends the sequence without a final value: the transfer failed or was cancelled.
    func fail() {
        state.withLock { $0.finished = true }
        continuation.finish()
    }

    /// The latest value.
    var current: TransferProgress {
        state.withLock { TransferProgress(completedBytes: $0.completed, totalBytes: $0.total) }
    }

    private func report(_ state: inout State) {
        state.lastReported = state.completed
        continuation.yield(TransferProgress(completedBytes: state.completed, totalBytes: state.total))
    }
}
