import Courier
import Synchronization

/// What a soak run has done and seen so far, shared by its workers, its fault schedule, its
/// WebSocket reader and its sampler: calls by kind, errors by typed code (and untyped ones),
/// the outcome of every keyed write by name, cache statuses, WebSocket messages, faults, and
/// how many operations are in flight.
///
/// `Sendable`: the counts sit in one `Mutex`, the in-flight gauge in an `Atomic`.
final class SoakTally: Sendable {
    /// The kinds of call the soak makes.
    enum Operation: String, CaseIterable, Sendable {
        /// Reads that bypass the cache: the opinions and the trend of a radar.
        case plainRead = "plain_reads"
        /// Repeated reads of one radar through the HTTP cache.
        case cachedRead = "cached_reads"
        /// Creates of a uniquely named radar with an `Idempotency-Key`, queueable.
        case keyedWrite = "keyed_writes"
        /// Small multipart uploads to the debug upload sink.
        case upload = "uploads"
        /// Refreshes of the radar the WebSocket watches, which make the server send updates.
        case liveRefresh = "live_refreshes"
    }

    /// How a keyed write ended for its caller.
    enum WriteOutcome: Sendable, Hashable {
        /// The server answered 2xx: it must hold the radar exactly once.
        case delivered
        /// The offline queue took it: once drained, the server must hold it exactly once.
        case queued
        /// The caller got an error (after retries with the same key): the server may hold it
        /// once or not at all, never twice.
        case failed
    }

    /// The counts at one moment.
    struct Snapshot: Sendable {
        var calls: [Operation: Int] = [:]
        var errors: [String: Int] = [:]
        var untypedErrors = 0
        var untypedExamples: [String] = []
        var writes: [String: WriteOutcome] = [:]
        var cacheStatuses: [String: Int] = [:]
        var webSocketMessages = 0
        var uploadMismatches = 0
        var faults: [String: Int] = [:]

        /// Every call made, all kinds together.
        var requests: Int { calls.values.reduce(0, +) }

        /// Every typed error, all codes together.
        var typedErrors: Int { errors.values.reduce(0, +) }
    }

    /// How many untyped errors are kept as examples for the summary.
    private static let untypedExampleLimit = 5

    private let state = Mutex(Snapshot())
    private let inFlight = Atomic<Int>(0)

    init() {}

    /// The counts now.
    func snapshot() -> Snapshot {
        state.withLock { $0 }
    }

    /// Counts one call of a kind.
    func count(_ operation: Operation) {
        state.withLock { $0.calls[operation, default: 0] += 1 }
    }

    /// Counts an error: by its code when it is a `CourierError`, as untyped otherwise.
    func recordError(_ error: any Error) {
        if let courier = error as? CourierError {
            let code = courier.code.description
            state.withLock { $0.errors[code, default: 0] += 1 }
        } else {
            let text = String(describing: type(of: error)) + ": " + String(describing: error)
            state.withLock { state in
                state.untypedErrors += 1
                if state.untypedExamples.count < Self.untypedExampleLimit { state.untypedExamples.append(text) }
            }
        }
    }

    /// Records how a keyed write ended.
    func recordWrite(_ name: String, _ outcome: WriteOutcome) {
        state.withLock { $0.writes[name] = outcome }
    }

    /// Counts the cache status of a cached read (`hit`, `revalidated`, `network`, `stale`).
    func recordCacheStatus(_ status: CacheStatus) {
        let name = String(describing: status)
        state.withLock { $0.cacheStatuses[name, default: 0] += 1 }
    }

    /// Counts a message received on the WebSocket.
    func recordWebSocketMessage() {
        state.withLock { $0.webSocketMessages += 1 }
    }

    /// Counts an upload whose receipt did not match what was sent.
    func recordUploadMismatch() {
        state.withLock { $0.uploadMismatches += 1 }
    }

    /// Counts a fault injected.
    func recordFault(_ name: String) {
        state.withLock { $0.faults[name, default: 0] += 1 }
    }

    /// Marks an operation as started.
    func begin() {
        _ = inFlight.add(1, ordering: .relaxed)
    }

    /// Marks an operation as over.
    func end() {
        _ = inFlight.subtract(1, ordering: .relaxed)
    }

    /// The operations of the soak's own workers and refresher under way now. Not the
    /// process's live tasks: Swift offers no count of those.
    var operationsInFlight: Int {
        inFlight.load(ordering: .relaxed)
    }
}
