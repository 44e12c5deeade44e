import Courier

extension WebSocketConnection {
    /// Everything about the connection that changes, behind the connection's one `Mutex`.
    struct SharedState: Sendable {
        var lifecycle: WebSocketLifecycle
        var random = SystemRandomNumberGenerator()
        var published: WebSocketState = .idle
        var subscribers: [Int: AsyncStream<WebSocketState>.Continuation] = [:]
        var nextSubscriberID = 0
        var started = false
        var runTask: Task<Void, Never>?
        /// The open link, between the handshake and the end of the connection.
        var link: (any WebSocketLink)?
        /// Whether the open hook and the flush of buffered messages are still running: new
        /// messages queue behind the buffered ones until they are done.
        var flushing = false
        /// Messages sent while disconnected, oldest first.
        var pending = FIFO<WebSocketMessage>()
        /// Senders waiting for room in ``pending``, by arrival.
        var roomWaiters: [Int: CheckedContinuation<Void, any Error>] = [:]
        var nextWaiterID = 0
        /// The credential the last handshake was signed with.
        var lastCredential: Credential?
        /// The failure that closed the connection without a reconnect, if one did.
        var terminalError: CourierError?
        var finished = false

        init(lifecycle: WebSocketLifecycle) {
            self.lifecycle = lifecycle
        }

        /// Feeds an event to the lifecycle and publishes the new state if it changed.
        mutating func apply(_ event: WebSocketLifecycle.Event) -> WebSocketLifecycle.Action {
            let action = lifecycle.handle(event, using: &random)
            let state = lifecycle.state
            if state != published {
                published = state
                for subscriber in subscribers.values {
                    subscriber.yield(state)
                    if state.isClosed { subscriber.finish() }
                }
                if state.isClosed { subscribers.removeAll() }
            }
            return action
        }

        /// Takes the earliest waiting sender, to let it in.
        mutating func takeRoomWaiter() -> CheckedContinuation<Void, any Error>? {
            guard let id = roomWaiters.keys.min() else { return nil }
            return roomWaiters.removeValue(forKey: id)
        }
    }

    /// Releases everything once the connection has closed for good: buffered messages are
    /// dropped, waiting senders fail, the message stream ends, the run task stops.
    func finishResources() {
        let (waiters, dropped, runTask) = shared.withLock { shared -> ([CheckedContinuation<Void, any Error>], Int, Task<Void, Never>?) in
            guard !shared.finished else { return ([], 0, nil) }
            shared.finished = true
            let waiters = Array(shared.roomWaiters.values)
            shared.roomWaiters.removeAll()
            let dropped = shared.pending.removeAll().count
            return (waiters, dropped, shared.runTask)
        }
        let error = Self.closedError(state)
        for waiter in waiters { waiter.resume(throwing: error) }
        if dropped > 0 {
            logger.info("websocket closed with unsent messages", metadata: ["dropped": "\(dropped)"])
        }
        inbox.finish()
        runTask?.cancel()
    }

    static func closedError(_ state: WebSocketState) -> CourierError {
        CourierError(code: .connectionLost, message: "the WebSocket connection is closed: \(state)")
    }
}
