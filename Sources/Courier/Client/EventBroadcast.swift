import Synchronization

/// Hands each event to every current listener, each through an `AsyncStream` of its own.
///
/// A `final class` whose continuations sit in a `Mutex`, which makes it `Sendable`. A
/// listener that falls behind keeps the newest 1,024 events.
final class EventBroadcast<Event: Sendable>: Sendable {
    private struct State {
        var continuations: [Int: AsyncStream<Event>.Continuation] = [:]
        var next = 0
    }

    private let state = Mutex(State())

    /// A new listener's stream: the events published from now on, until it is dropped.
    func stream() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(1_024))
        let id = state.withLock { state in
            defer { state.next += 1 }
            state.continuations[state.next] = continuation
            return state.next
        }
        continuation.onTermination = { [weak self] _ in _ = self?.state.withLock { $0.continuations.removeValue(forKey: id) } }
        return stream
    }

    /// Gives `event` to every listener.
    func publish(_ event: Event) {
        for continuation in state.withLock({ Array($0.continuations.values) }) { continuation.yield(event) }
    }
}
