/// What the open hook of a ``WebSocketConnection`` receives each time the connection opens:
/// whether it is a reconnect, and a way to send before anything else.
///
/// Messages sent here go out at once, before the messages buffered while disconnected:
/// resubscribe here, or resend the state the server lost.
///
/// ```swift
/// let connection = WebSocketConnection(configuration: configuration) { open in
///     try await open.send(.json(Subscribe(topics: topics)))
/// }
/// ```
public struct WebSocketOpenContext: Sendable {
    /// Whether the connection had been open before (this is a reconnect).
    public let isReconnect: Bool
    /// How many times the connection has opened, this time included (1 the first time).
    public let openCount: Int
    let link: any WebSocketLink

    /// Sends a message on the connection that just opened, ahead of any buffered message.
    /// - Parameter message: The message.
    /// - Throws: When the connection is lost again meanwhile.
    public func send(_ message: WebSocketMessage) async throws {
        try await link.send(message)
    }
}
