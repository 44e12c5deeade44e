import Courier
import Foundation
import RadarAPI
import RadarCore

/// The end of a soak: waits (bounded) for the offline queue to drain, then lists every radar
/// the server holds and counts the run's keyed writes by name and by id.
///
/// The server keeps no count of how often a keyed write was applied, so this is checked
/// through the API: every keyed write creates a radar with a name used once, so a name held
/// under two ids is a write applied twice, and a name missing is a write not applied.
struct SoakVerification {
    /// What the server and the queue hold at the end.
    struct Outcome: Sendable {
        /// The ids the server holds under each of the run's keyed-write names.
        var held: [String: Set<String>] = [:]
        /// The writes still waiting in the queue when the drain gave up.
        var pendingAtEnd = 0
        /// The writes the queue gave up on.
        var deadLettered = 0
        /// How long the drain took, in seconds.
        var drainSeconds = 0.0
    }

    /// The largest page the list allows.
    private static let pageSize = 100

    let radar: RadarClient
    let queue: OfflineQueue
    /// What every keyed write's radar name starts with.
    let namePrefix: String
    /// The longest wait for the queue to drain.
    let drainLimit: Duration

    /// Drains the queue, then lists what the server holds.
    /// - Throws: A queue storage error, or the `CourierError` of a list page that
    ///   failed (the fault schedule is cleared by then, and reads are retried).
    func run() async throws -> Outcome {
        var outcome = Outcome()
        let start = ContinuousClock.now
        let deadline = start + drainLimit
        var pending = try await queue.pending().count
        while pending > 0, ContinuousClock.now < deadline {
            await queue.replay()
            pending = try await queue.pending().count
            if pending > 0 { try? await Task.sleep(for: .milliseconds(250)) }
        }
        outcome.drainSeconds = (ContinuousClock.now - start).timeInterval
        outcome.pendingAtEnd = pending
        outcome.deadLettered = try await queue.deadLetters().count

        var offset = 0
        while true {
            var request = RadarEndpoints.list(limit: Self.pageSize, offset: offset)
            request.options.cachePolicy = .bypass
            let page = RadarClient.page(try await radar.client.send(request), limit: Self.pageSize, offset: offset)
            for item in page.items where item.topic.hasPrefix(namePrefix) {
                outcome.held[item.topic, default: []].insert(item.id)
            }
            offset += page.items.count
            if page.items.count < Self.pageSize { break }
        }
        return outcome
    }
}
