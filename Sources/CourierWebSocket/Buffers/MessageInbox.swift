import Synchronization

/// The bounded buffer between the engine, which receives messages, and the app, which reads
/// them: one producer and one consumer.
///
/// When full, the producer either waits for room (``WebSocketConfiguration/IncomingOverflow/suspendReading``,
/// which stops the engine reading from the socket) or drops the oldest message
/// (``WebSocketConfiguration/IncomingOverflow/dropOldest``). After ``finish()``, the consumer
/// reads what is left, then `nil`.
///
/// A `final class` whose state sits in a `Mutex`, which makes it `Sendable`.
final class MessageInbox<Element: Sendable>: Sendable {
    private struct State: Sendable {
        var buffer = FIFO<Element>()
        var finished = false
        var dropped = 0
        var consumer: CheckedContinuation<Element?, Never>?
        var producer: CheckedContinuation<Void, Never>?
    }

    let capacity: Int
    let dropsOldest: Bool
    private let state = Mutex(State())

    init(capacity: Int, dropsOldest: Bool) {
        self.capacity = max(1, capacity)
        self.dropsOldest = dropsOldest
    }

    /// How many messages were dropped to make room.
    var dropped: Int { state.withLock { $0.dropped } }

    /// Hands a message to the consumer, or buffers it; waits for room when full (unless
    /// dropping). Does nothing once finished.
    func push(_ element: Element) async {
        while true {
            let (done, consumer): (Bool, CheckedContinuation<Element?, Never>?) = state.withLock { state in
                if state.finished { return (true, nil) }
                if let consumer = state.consumer {
                    state.consumer = nil
                    return (true, consumer)
                }
                if state.buffer.count < capacity {
                    state.buffer.append(element)
                    return (true, nil)
                }
                if dropsOldest {
                    _ = state.buffer.popFirst()
                    state.buffer.append(element)
                    state.dropped += 1
                    return (true, nil)
                }
                return (false, nil)
            }
            if let consumer {
                consumer.resume(returning: element)
                return
            }
            if done { return }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.finished || state.buffer.count < capacity || state.consumer != nil { return true }
                    state.producer = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
    }

    /// The next message, waiting for one; `nil` once finished and drained, or when the
    /// calling task is cancelled.
    func next() async -> Element? {
        if let ready = takeBuffered() { return ready.element }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Element?, Never>) in
                let (immediate, producer) = state.withLock { state -> (Element??, CheckedContinuation<Void, Never>?) in
                    if let element = state.buffer.popFirst() {
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
            if let element = state.buffer.popFirst() {
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
