/// The status code of a WebSocket close (RFC 6455, section 7.4).
///
/// Codes 4000–4999 are for applications: mark the ones that mean "do not come back" in
/// ``ReconnectPolicy/finalCloseCodes``.
public struct WebSocketCloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The numeric code.
    public var rawValue: UInt16

    /// Makes a code.
    /// - Parameter rawValue: The numeric code.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// Makes a code.
    /// - Parameter code: The numeric code.
    public init(_ code: UInt16) {
        self.rawValue = code
    }

    /// 1000: the purpose of the connection was fulfilled.
    public static let normalClosure = WebSocketCloseCode(1000)
    /// 1001: the peer is going away (a server shutting down, a page left).
    public static let goingAway = WebSocketCloseCode(1001)
    /// 1002: the peer broke the protocol.
    public static let protocolError = WebSocketCloseCode(1002)
    /// 1003: the peer received a type of data it cannot accept.
    public static let unsupportedData = WebSocketCloseCode(1003)
    /// 1005: the close frame carried no code (never sent on the wire).
    public static let noStatusReceived = WebSocketCloseCode(1005)
    /// 1006: the connection ended without a close frame (never sent on the wire).
    public static let abnormalClosure = WebSocketCloseCode(1006)
    /// 1007: a message's data did not match its type (for example, text that is not UTF-8).
    public static let invalidPayload = WebSocketCloseCode(1007)
    /// 1008: a message broke the peer's policy; also used here when the credential is refused.
    public static let policyViolation = WebSocketCloseCode(1008)
    /// 1009: a message was too big to process.
    public static let messageTooBig = WebSocketCloseCode(1009)
    /// 1011: the server met an unexpected condition.
    public static let internalError = WebSocketCloseCode(1011)
    /// 1015: the TLS handshake failed, the server's certificate or key was refused (a pin
    /// mismatch included); never sent on the wire. ``WebSocketConnection/terminalError`` holds
    /// the `CourierError` (`CourierError.Code.tlsFailure`).
    public static let tlsHandshakeFailure = WebSocketCloseCode(1015)

    /// Whether the code is in the range reserved for applications (4000–4999).
    public var isApplicationCode: Bool { (4000...4999).contains(rawValue) }

    /// The number, such as `1000`.
    public var description: String { String(rawValue) }
}
