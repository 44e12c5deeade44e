public import Foundation
public import HTTPTypes

/// The engine that opens one WebSocket connection and carries its messages.
///
/// ``WebSocketConnection`` owns the policy (reconnects, buffering, auth, the open hook); an
/// engine only moves frames. Courier ships ``WSClientEngine`` (swift-websocket's `WSClient`,
/// on Linux and Apple platforms). Implement this protocol to plug in another engine, or a
/// scripted one in tests.
///
/// ## Contract
/// - ``run(_:options:onOpen:onMessage:)`` returns when the connection has ended, saying how.
/// - A refused handshake throws ``WebSocketHandshakeError``, with the status when known:
///   401 makes the connection renew its credential.
/// - Other failures to connect throw a `CourierError`
///   (`CourierError.Code.cannotConnect` and the like). A TLS failure throws
///   `CourierError.Code.tlsFailure` and a URL or setting the engine cannot use
///   `CourierError.Code.invalidRequest`: the connection does not reconnect after
///   those two.
/// - Cancellation of the calling task ends the connection promptly.
public protocol WebSocketEngine: Sendable {
    /// Opens a connection and carries it until it ends.
    /// - Parameters:
    ///   - handshake: The URL and header fields of the opening handshake.
    ///   - options: Frame and message limits, the heartbeat, the close timeout.
    ///   - onOpen: Called once the handshake succeeded, with the link to send on. Messages
    ///     are read while it runs.
    ///   - onMessage: Called for each received message, in order; the engine does not read
    ///     the next one until it returns.
    /// - Returns: How the connection ended.
    /// - Throws: ``WebSocketHandshakeError`` or a `CourierError` when it could not open.
    func run(
        _ handshake: WebSocketHandshake,
        options: WebSocketEngineOptions,
        onOpen: @escaping @Sendable (any WebSocketLink) async -> Void,
        onMessage: @escaping @Sendable (WebSocketMessage) async -> Void
    ) async throws -> WebSocketLinkEnd
}

/// The sending side of one open WebSocket connection.
public protocol WebSocketLink: Sendable {
    /// Sends one message, fragmenting it past the frame limit.
    /// - Parameter message: The message.
    /// - Throws: When the connection is no longer open.
    func send(_ message: WebSocketMessage) async throws

    /// Starts the closing handshake; the engine's `run` returns once the server answers
    /// (or the close timeout passes).
    /// - Parameters:
    ///   - code: The close code.
    ///   - reason: The close reason (at most 123 bytes of UTF-8).
    func close(code: WebSocketCloseCode, reason: String) async throws
}

/// The opening handshake: where to connect and with which header fields.
public struct WebSocketHandshake: Sendable {
    /// The server, `ws://` or `wss://`.
    public var url: URL
    /// Header fields sent with the upgrade request, the credential included.
    public var headers: HTTPFields

    /// Makes a handshake.
    /// - Parameters:
    ///   - url: The server.
    ///   - headers: The header fields.
    public init(url: URL, headers: HTTPFields) {
        self.url = url
        self.headers = headers
    }
}

/// Limits and timers an engine applies to one connection.
public struct WebSocketEngineOptions: Sendable, Hashable {
    /// The largest message accepted, in bytes.
    public var maxMessageBytes: Int
    /// The largest frame sent or accepted, in bytes.
    public var maxFrameBytes: Int
    /// The ping interval, also the pong timeout; `nil` sends no pings.
    public var heartbeat: Duration?
    /// How long to wait for the server's answer to a close.
    public var closeTimeout: Duration
    /// The compression to offer in the handshake; `nil` (the default here) offers none.
    public var compression: WebSocketCompression?

    /// Makes options.
    /// - Parameters:
    ///   - maxMessageBytes: The largest message accepted.
    ///   - maxFrameBytes: The largest frame sent or accepted.
    ///   - heartbeat: The ping interval, or `nil`.
    ///   - closeTimeout: The close timeout.
    public init(maxMessageBytes: Int, maxFrameBytes: Int, heartbeat: Duration?, closeTimeout: Duration) {
        self.maxMessageBytes = maxMessageBytes
        self.maxFrameBytes = maxFrameBytes
        self.heartbeat = heartbeat
        self.closeTimeout = closeTimeout
    }
}

/// How an open connection ended.
public enum WebSocketLinkEnd: Sendable, Hashable {
    /// The server sent a close frame (or answered ours) with this code and reason.
    case closedByServer(code: WebSocketCloseCode, reason: String)
    /// The connection ended without a close frame: dropped, reset, or a protocol failure.
    case lost(reason: String)
    /// No pong came back within the heartbeat: the connection was declared dead.
    case heartbeatTimedOut
}

/// The server declined the opening handshake.
public struct WebSocketHandshakeError: Error, Sendable, CustomStringConvertible {
    /// The status of the server's answer, when the engine could learn it.
    public var status: Int?

    /// Makes the error.
    /// - Parameter status: The status, if known.
    public init(status: Int?) {
        self.status = status
    }

    /// A description for logs.
    public var description: String {
        status.map { "the server declined the WebSocket handshake with status \($0)" }
            ?? "the server declined the WebSocket handshake"
    }
}
