import Courier
public import Foundation

extension WebSocketConnection {
    /// Sends a message.
    ///
    /// When the connection is open, the message is written at once. Otherwise, as
    /// ``WebSocketConfiguration/whileDisconnected`` says: it waits in the bounded buffer and
    /// goes out, in order, after the next open (the call returns once it is buffered, or
    /// first waits for room when the buffer is full), or the call fails.
    /// - Parameter message: The message.
    /// - Throws: `CourierError`: `CourierError.Code.offline` when
    ///   disconnected and the policy is to fail; `CourierError.Code.connectionLost`
    ///   when the connection is closed, or dropped while the message was being written;
    ///   `CancellationError` when the task is cancelled while waiting for room.
    public func send(_ message: WebSocketMessage) async throws {
        while true {
            switch nextSendStep(for: message) {
            case .write(let link):
                do {
                    try await link.send(message)
                } catch {
                    throw CourierError(code: .connectionLost, message: "the WebSocket connection was lost while sending", underlying: error)
                }
                return
            case .buffered:
                return
            case .fail(let error):
                throw error
            case .waitForRoom:
                try await waitForRoom()
            }
        }
    }

    /// Sends a text message.
    /// - Parameter text: The text.
    /// - Throws: As ``send(_:)``.
    public func send(text: String) async throws {
        try await send(.text(text))
    }

    /// Sends a value encoded as JSON, in a text message.
    /// - Parameters:
    ///   - value: The value.
    ///   - encoder: The encoder.
    /// - Throws: The encoder's error, or as ``send(_:)``.
    public func send(json value: some Encodable, encoder: JSONEncoder = JSONEncoder()) async throws {
        try await send(.json(value, encoder: encoder))
    }

    private enum SendStep {
        case write(any WebSocketLink)
        case buffered
        case fail(CourierError)
        case waitForRoom
    }

    private func nextSendStep(for message: WebSocketMessage) -> SendStep {
        shared.withLock { shared in
            switch shared.lifecycle.phase {
            case .closed, .closing:
                return .fail(Self.closedError(shared.published))
            default:
                break
            }
            if let link = shared.link, !shared.flushing, shared.pending.isEmpty {
                return .write(link)
            }
            switch configuration.whileDisconnected {
            case .fail:
                if let link = shared.link { return .write(link) }
                return .fail(CourierError(code: .offline, message: "the WebSocket is not connected (\(shared.published))"))
            case .wait(let capacity):
                if shared.pending.count < max(1, capacity) {
                    shared.pending.append(message)
                    return .buffered
                }
                return .waitForRoom
            }
        }
    }

    /// Waits until the outgoing buffer has room, the connection is open with nothing
    /// buffered, or it closes (throws), or the task is cancelled (throws).
    private func waitForRoom() async throws {
        let id = shared.withLock { shared -> Int in
            shared.nextWaiterID += 1
            return shared.nextWaiterID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let immediate = shared.withLock { shared -> Result<Void, any Error>? in
                    if shared.lifecycle.isClosed || shared.finished { return .failure(Self.closedError(shared.published)) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if case .wait(let capacity) = configuration.whileDisconnected, shared.pending.count < max(1, capacity) {
                        return .success(())
                    }
                    shared.roomWaiters[id] = continuation
                    return nil
                }
                if let immediate { continuation.resume(with: immediate) }
            }
        } onCancel: {
            let waiter = shared.withLock { $0.roomWaiters.removeValue(forKey: id) }
            waiter?.resume(throwing: CancellationError())
        }
    }
}
