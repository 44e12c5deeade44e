import RadarCore
import Synchronization

/// The live updates of every radar: numbered, kept for a while (so an event stream can
/// resume after `Last-Event-ID`), and handed to subscribers as they are published.
///
/// Sequence numbers are global and increase by one per update; a radar's updates are a
/// subsequence. `Sendable` without `@unchecked`: all state is held in a `Mutex`.
final class RadarUpdateFeed: Sendable {
    /// One published update and its number.
    struct Sequenced: Sendable {
        let sequence: Int
        let update: RadarUpdate
    }

    /// How many updates per radar are kept for resuming.
    static let retainedPerRadar = 256

    private struct Subscriber {
        let radarId: String
        let continuation: AsyncStream<Sequenced>.Continuation
        /// Whether ``endDroppableSubscriptions()`` ends it (event streams do; sockets are dropped by closing their channel).
        let droppable: Bool
    }

    private struct State {
        var nextSequence = 1
        var logs: [String: [Sequenced]] = [:]
        /// Per radar, the highest sequence number no longer kept.
        var forgotten: [String: Int] = [:]
        var subscribers: [Int: Subscriber] = [:]
        var nextSubscriberID = 0
    }

    private let state = Mutex(State())

    /// Numbers and keeps the updates of one radar, and hands them to its subscribers.
    func publish(_ updates: [RadarUpdate], radarId: String) {
        state.withLock { state in
            for update in updates {
                let item = Sequenced(sequence: state.nextSequence, update: update)
                state.nextSequence += 1
                state.logs[radarId, default: []].append(item)
                if state.logs[radarId, default: []].count > Self.retainedPerRadar {
                    let dropped = state.logs[radarId, default: []].removeFirst()
                    state.forgotten[radarId] = dropped.sequence
                }
                for subscriber in state.subscribers.values where subscriber.radarId == radarId {
                    subscriber.continuation.yield(item)
                }
            }
        }
    }

    /// Publishes what a refresh changed: each new opinion, the position if it moved, then the
    /// whole radar.
    func radarRefreshed(from before: Radar, to after: Radar) {
        let known = Set(before.opinions.map(\.id))
        var updates = after.opinions.filter { !known.contains($0.id) }.map(RadarUpdate.newOpinion)
        if before.position != after.position {
            updates.append(.positionChange(radarId: after.id, position: after.position))
        }
        updates.append(.refresh(after))
        publish(updates, radarId: after.id)
    }

    /// Starts receiving a radar's updates from now on.
    /// - Returns: The subscription's id (for ``unsubscribe(_:)``) and its updates.
    func subscribe(radarId: String, droppable: Bool) -> (id: Int, updates: AsyncStream<Sequenced>) {
        let (stream, continuation) = AsyncStream.makeStream(of: Sequenced.self, bufferingPolicy: .bufferingNewest(1_024))
        let id = state.withLock { state -> Int in
            state.nextSubscriberID += 1
            state.subscribers[state.nextSubscriberID] = Subscriber(radarId: radarId, continuation: continuation, droppable: droppable)
            return state.nextSubscriberID
        }
        return (id, stream)
    }

    func unsubscribe(_ id: Int) {
        state.withLock { $0.subscribers.removeValue(forKey: id) }?.continuation.finish()
    }

    /// Ends every droppable subscription (the event streams); returns how many.
    func endDroppableSubscriptions() -> Int {
        let ended = state.withLock { state -> [Subscriber] in
            let ended = state.subscribers.filter { $0.value.droppable }
            for id in ended.keys { state.subscribers.removeValue(forKey: id) }
            return Array(ended.values)
        }
        for subscriber in ended { subscriber.continuation.finish() }
        return ended.count
    }

    /// The number of the radar's latest update; 0 if it has none.
    func latestSequence(radarId: String) -> Int {
        state.withLock { $0.logs[radarId]?.last?.sequence ?? $0.forgotten[radarId] ?? 0 }
    }

    /// The radar's updates after `sequence`, or `nil` when some of them are no longer kept.
    func updates(radarId: String, after sequence: Int) -> [Sequenced]? {
        state.withLock { state in
            if let forgotten = state.forgotten[radarId], sequence < forgotten { return nil }
            return (state.logs[radarId] ?? []).filter { $0.sequence > sequence }
        }
    }
}
