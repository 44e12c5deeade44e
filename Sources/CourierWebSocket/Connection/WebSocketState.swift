/// Where a ``WebSocketConnection`` is in its life.
///
/// ```
/// idle → connecting → connected ⇄ reconnecting(attempt, delay) → connecting …
///                                      ↘ closed(code, reason)
/// ```
/// `closed` is final: a closed connection never opens again.
public enum WebSocketState: Sendable, Hashable, CustomStringConvertible {
    /// Made, not started: call ``WebSocketConnection/connect()``.
    case idle
    /// Opening the connection: the TCP connection and the handshake.
    case connecting
    /// Open: messages flow both ways.
    case connected
    /// Waiting `delay` before reconnect attempt `attempt` (1 for the first after a drop).
    case reconnecting(attempt: Int, delay: Duration)
    /// Ended for good, with the close code and reason: the server's, the app's, or one
    /// describing why the connection gave up (1006 after too many failed attempts, 1008 when
    /// the credential is refused or the URL or TLS policy cannot be used, 1015 when TLS
    /// failed; see ``WebSocketConnection/terminalError``).
    case closed(code: WebSocketCloseCode, reason: String)

    /// Whether the connection has ended for good.
    public var isClosed: Bool {
        if case .closed = self { return true }
        return false
    }

    /// A short description, such as `reconnecting(attempt: 2, delay: 800 ms)`.
    public var description: String {
        switch self {
        case .idle: return "idle"
        case .connecting: return "connecting"
        case .connected: return "connected"
        case .reconnecting(let attempt, let delay):
            let milliseconds = delay.components.seconds * 1_000 + delay.components.attoseconds / 1_000_000_000_000_000
            return "reconnecting(attempt: \(attempt), delay: \(milliseconds) ms)"
        case .closed(let code, let reason): return "closed(\(code)\(reason.isEmpty ? "" : ", \(reason)"))"
        }
    }
}
