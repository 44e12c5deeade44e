import Synchronization

/// The bounded buffer between the engine, which receives messages, and the app, which reads
/// them: one producer and one consumer.
///
/// It is bounded twice: by ``capacity`` messages and by ``maxBytes`` bytes (each message
/// weighed by the `byteCount` it was made with). It is full when one more message would
/// break either bound; an empty buffer always takes a message, however large, so a single
/// message is never stuck (the engine's largest-message limit bounds it). When full, the
/// producer either waits for room (``WebSocketConfiguration/IncomingOverflow/suspendReading``,
/// which stops the engine reading from the socket) or drops the oldest messages until the new
/// one fits (``WebSocketConfiguration/IncomingOverflow/dropOldest``, counted in ``dropped``).
/// After ``finish()``, the consumer reads what is left, then `nil`.
///
/// A `final class` whose state sits in a `Mutex`, which makes it `Sendable`.
final class MessageInbox<Element: Sendable>: Sendable {
    /// A buffered message and the bytes it counts for.
    private struct Entry: Sendable {
        let element: Element
        let bytes: Int
    }

    private struct State: Sendable {
        var buffer = FIFO<Entry>()
        var bufferedBytes = 0
        var finished = false
        var dropped = 0
        var consumer: CheckedContinuation<Element?, Never>?
        var producer: CheckedContinuation<Void, Never>?

        /// Whether a message of `bytes` fits without breaking a bound.
        func hasRoom(for bytes: Int, capacity: Int, maxBytes: Int) -> Bool {
            buffer.isEmpty || (buffer.count < capacity && bytes <= maxBytes - bufferedBytes)
        }

        mutating func popFirst() -> Element? {
            guard let entry = buffer.popFirst() else { return nil }
            bufferedBytes -= entry.bytes
            return entry.element
        }
    }

    /// The most messages buffered.
    let capacity: Int
    /// The most bytes buffered (unless a single message is larger on its own).
    let maxBytes: Int
    let dropsOldest: Bool
    private let byteCount: @Sendable (Element) -> Int
    private let state = Mutex(State())

    /// Makes an inbox.
    /// - Parameters:
    ///   - capacity: The most messages buffered; at least 1.
    ///   - maxBytes: The most bytes buffered; at least 1. No byte bound by default.
    ///   - dropsOldest: Whether a full buffer drops its oldest messages instead of waiting.
    ///   - byteCount: How many bytes a message counts for; none by default.
    init(
        capacity: Int,
        maxBytes: Int = .max,
        dropsOldest: Bool,
        byteCount: @escaping @Sendable (Element) -> Int = { _ in 0 }
    ) {
        self.capacity = max(1, capacity)
        self.maxBytes = max(1, maxBytes)
        self.dropsOldest = dropsOldest
        self.byteCount = byteCount
    }

    /// How many messages were dropped to make room.
    var dropped: Int { state.withLock { $0.dropped } }

    /// How many messages wait for the consumer.
    var bufferedCount: Int { state.withLock { $0.buffer.count } }

    /// How many bytes the waiting messages count for.
    var bufferedBytes: Int { state.withLock { $0.bufferedBytes } }

    /// What ``offer(_:)`` did with a message.
    enum Offer: Sendable, Hashable {
        /// Handed to the waiting consumer, or buffered (after dropping older ones, if the
        /// inbox drops).
        case taken
        /// The buffer is full and the inbox does not drop: the producer must wait for room.
        case full
        /// The inbox is finished: the message is discarded.
        case finished
    }

    /// Hands a message to the consumer, or buffers it; waits for room when full (unless
    /// dropping). Does nothing once finished.
    func push(_ element: Element) async {
        let bytes = weight(of: element)
        while offer(element, bytes: bytes) == .full {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.finished || state.consumer != nil || state.hasRoom(for: bytes, capacity: capacity, maxBytes: maxBytes) {
                        return true
                    }
                    state.producer = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
    }

    /// The step of ``push(_:)`` that does not wait: hands the message to a waiting consumer,
    /// buffers it if both bounds allow, drops the oldest messages to make room if the inbox
    /// drops, or says the producer must wait.
    /// - Parameter element: The message.
    /// - Returns: What became of it.
    func offer(_ element: Element) -> Offer {
        offer(element, bytes: weight(of: element))
    }

    private func weight(of element: Element) -> Int {
        max(0, byteCount(element))
    }

    private func offer(_ element: Element, bytes: Int) -> Offer {
        let capacity = self.capacity
        let maxBytes = self.maxBytes
        let dropsOldest = self.dropsOldest
        let (offer, consumer) = state.withLock { state -> (Offer, CheckedContinuation<Element?, Never>?) in
            if state.finished { return (.finished, nil) }
            if let consumer = state.consumer {
                state.consumer = nil
                return (.taken, consumer)
            }
            if !state.hasRoom(for: bytes, capacity: capacity, maxBytes: maxBytes) {
                guard dropsOldest else { return (.full, nil) }
                while !state.hasRoom(for: bytes, capacity: capacity, maxBytes: maxBytes), state.popFirst() != nil {
                    state.dropped += 1
                }
            }
            state.buffer.append(Entry(element: element, bytes: bytes))
            state.bufferedBytes += bytes
            return (.taken, nil)
        }
        consumer?.resume(returning: element)
        return offer
    }

    /// The next message, waiting for one; `nil` once finished and drained, or when the
    /// calling task is cancelled.
    func next() async -> Element? {
        if let ready = takeBuffered() { return ready.element }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Element?, Never>) in
                let (immediate, producer) = state.withLock { state -> (Element??, CheckedContinuation<Void, Never>?) in
                    if let element = state.popFirst() {
                        let producer = state.producer
                        state.producer = nil
                        return (.some(element), producer)
                    }
                    if state.finished || Task.isCancelled { return (.some(nil), nil) }
                    state.consumer = continuation
                    return (nil, nil)
                }
                producer?.resume()
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let consumer = state.withLock { state -> CheckedContinuation<Element?, Never>? in
                defer { state.consumer = nil }
                return state.consumer
            }
            consumer?.resume(returning: nil)
        }
    }

    /// Ends the stream: the consumer drains the buffer, then reads `nil`; a waiting producer returns.
    func finish() {
        let (consumer, producer) = state.withLock { state in
            state.finished = true
            defer { state.consumer = nil; state.producer = nil }
            return (state.buffer.isEmpty ? state.consumer : nil, state.producer)
        }
        consumer?.resume(returning: nil)
        producer?.resume()
    }

    private func takeBuffered() -> (element: Element?, Void)? {
        let (element, producer, finishedEmpty) = state.withLock { state -> (Element?, CheckedContinuation<Void, Never>?, Bool) in
            if let element = state.popFirst() {
                let producer = state.producer
                state.producer = nil
                return (element, producer, false)
            }
            return (nil, nil, state.finished)
        }
        producer?.resume()
        if let element { return (element, ()) }
        if finishedEmpty { return (nil, ()) }
        return nil
    }
}
