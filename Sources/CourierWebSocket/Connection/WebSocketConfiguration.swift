public import Foundation
public import HTTPTypes

/// Everything a ``WebSocketConnection`` is made from: where to connect, how to come back,
/// how to tell a dead connection, and how much to buffer.
///
/// ```swift
/// var configuration = WebSocketConfiguration(url: URL(string: "wss://api.example.com/ws")!)
/// configuration.heartbeat = .seconds(20)
/// configuration.whileDisconnected = .fail
/// ```
public struct WebSocketConfiguration: Sendable {
    /// What happens to a message sent while the connection is not open.
    public enum DisconnectedSends: Sendable, Hashable {
        /// Keep up to `capacity` messages and send them, in order, once connected again;
        /// a sender finding the buffer full waits for room.
        case wait(capacity: Int)
        /// Throw `CourierError` (`CourierError.Code.offline`) at once.
        case fail
    }

    /// What happens when the app reads messages more slowly than they arrive, and the
    /// received messages waiting for it reach ``WebSocketConfiguration/incomingCapacity``
    /// messages or ``WebSocketConfiguration/incomingMaxBytes`` bytes.
    public enum IncomingOverflow: Sendable, Hashable {
        /// Stop reading from the socket until there is room (nothing is lost). While reading
        /// is suspended, pongs are not read either: a consumer stalled for longer than the
        /// heartbeat makes the connection look dead.
        case suspendReading
        /// Drop the oldest buffered messages until the new one fits;
        /// ``WebSocketConnection/droppedMessages`` counts them.
        case dropOldest
    }

    /// The server, `ws://` or `wss://`.
    public var url: URL
    /// Extra header fields for the handshake. The credential is added by the connection's
    /// `AuthSession`, if it has one: do not put tokens here.
    public var headers: HTTPFields
    /// When to come back after a loss.
    public var reconnect: ReconnectPolicy
    /// How often to ping; a pong missing by the next ping declares the connection dead (it
    /// is then reconnected). `nil` sends no pings.
    public var heartbeat: Duration?
    /// Messages sent while disconnected: buffered (bounded) or refused.
    public var whileDisconnected: DisconnectedSends
    /// How many received messages wait for the app at most.
    public var incomingCapacity: Int
    /// How many bytes of received messages (the UTF-8 of text, the payload of binary) wait
    /// for the app at most: with ``incomingCapacity``, what bounds the memory a fast or
    /// hostile server can fill when the app reads slowly.
    ///
    /// A message that would take the buffer past it is handled as ``incomingOverflow`` says.
    /// When nothing else is buffered, one message is taken however large it is (up to
    /// ``maxMessageBytes``), so the most held is the larger of the two limits.
    public var incomingMaxBytes: Int
    /// What happens when ``incomingCapacity`` or ``incomingMaxBytes`` is reached.
    public var incomingOverflow: IncomingOverflow
    /// The largest message accepted, in bytes; a bigger one closes the connection with 1009.
    public var maxMessageBytes: Int
    /// The largest frame sent or accepted, in bytes; longer messages are sent in fragments.
    public var maxFrameBytes: Int
    /// How long to wait for the server's answer to a close before dropping the connection.
    public var closeTimeout: Duration
    /// The compression offered in the handshake: permessage-deflate by default
    /// (``WebSocketCompression/perMessageDeflate``); `nil` offers none.
    public var compression: WebSocketCompression? = .perMessageDeflate

    /// Makes a configuration.
    /// - Parameters:
    ///   - url: The server, `ws://` or `wss://`.
    ///   - headers: Extra handshake header fields (no credentials).
    ///   - reconnect: When to come back after a loss.
    ///   - heartbeat: The ping interval, also the pong timeout; 30 seconds by default.
    ///   - whileDisconnected: Buffer up to 256 messages by default.
    ///   - incomingCapacity: Received messages kept for the app; 1,024 by default.
    ///   - incomingMaxBytes: Bytes of received messages kept for the app; 16 MiB by default.
    ///   - incomingOverflow: Suspend reading by default.
    ///   - maxMessageBytes: 16 MiB by default.
    ///   - maxFrameBytes: 1 MiB by default.
    ///   - closeTimeout: 5 seconds by default.
    public init(
        url: URL,
        headers: HTTPFields = [:],
        reconnect: ReconnectPolicy = .default,
        heartbeat: Duration? = .seconds(30),
        whileDisconnected: DisconnectedSends = .wait(capacity: 256),
        incomingCapacity: Int = 1_024,
        incomingMaxBytes: Int = 16 << 20,
        incomingOverflow: IncomingOverflow = .suspendReading,
        maxMessageBytes: Int = 16 << 20,
        maxFrameBytes: Int = 1 << 20,
        closeTimeout: Duration = .seconds(5)
    ) {
        self.url = url
        self.headers = headers
        self.reconnect = reconnect
        self.heartbeat = heartbeat
        self.whileDisconnected = whileDisconnected
        self.incomingCapacity = max(1, incomingCapacity)
        self.incomingMaxBytes = max(1, incomingMaxBytes)
        self.incomingOverflow = incomingOverflow
        self.maxMessageBytes = maxMessageBytes
        self.maxFrameBytes = maxFrameBytes
        self.closeTimeout = closeTimeout
    }
}
