import HummingbirdWebSocket
import NIOCore

/// Runs one server WebSocket under the hub's control: registered while open, closed on
/// command, deaf when the hub says so (it then never reads, so pings go unanswered).
///
/// The session ends when the client closes, the connection drops, or `push` ends.
struct ManagedSocketSession: Sendable {
    /// The largest message the server reads.
    static let maxMessageBytes = 16 << 20

    let hub: RealtimeHub
    let channel: any Channel

    /// Runs the session.
    /// - Parameters:
    ///   - inbound: The client's frames.
    ///   - outbound: Where to write.
    ///   - push: Writes what the server sends on its own (updates), until it returns; `nil`
    ///     for a session that only answers.
    ///   - onMessage: Answers one client message.
    func run(
        inbound: WebSocketInboundStream,
        outbound: WebSocketOutboundWriter,
        push: (@Sendable (WebSocketOutboundWriter) async throws -> Void)?,
        onMessage: @escaping @Sendable (WebSocketMessage, WebSocketOutboundWriter) async throws -> Void
    ) async throws {
        let (id, commands, deaf) = hub.register(channel)
        defer { hub.unregister(id) }
        let channel = self.channel
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                if deaf {
                    // Never read: pings stay unanswered until the client gives up and closes.
                    try await Self.waitUntilClosed(channel)
                    return
                }
                for try await message in inbound.messages(maxSize: Self.maxMessageBytes) {
                    try await onMessage(message, outbound)
                }
            }
            if let push {
                group.addTask { try await push(outbound) }
            }
            group.addTask {
                // Ends only when cancelled: the reader or the pusher ends the session.
                for await command in commands {
                    switch command {
                    case .close(let code, let reason):
                        try await outbound.close(.init(codeNumber: Int(code)), reason: reason)
                    }
                }
            }
            _ = try await group.next()
            group.cancelAll()
        }
    }

    /// Waits until the channel closes; cancelling the wait closes it.
    private static func waitUntilClosed(_ channel: any Channel) async throws {
        try await withTaskCancellationHandler {
            try await channel.closeFuture.get()
        } onCancel: {
            channel.close(promise: nil)
        }
    }
}
