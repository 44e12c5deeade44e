public import Courier

/// When and how fast a ``WebSocketConnection`` comes back after it is lost.
///
/// Delays come from Courier's `Backoff`, the same one the retry policy uses:
/// reconnect attempt `n` waits `backoff.delay(afterFailedAttempts: n)`, jittered. A
/// successful handshake starts the count again.
///
/// The connection does not come back after:
/// - a close by the app (``WebSocketConnection/close(code:reason:)``) or the cancellation of
///   the task that runs it;
/// - a normal close (1000) from the server;
/// - a close code listed in ``finalCloseCodes`` (for example, your API's 4xxx "account
///   suspended");
/// - an attempt that fails with a TLS failure (`CourierError.Code.tlsFailure`:
///   an untrusted certificate, a pin mismatch) or with a URL or TLS policy the engine cannot
///   use (`CourierError.Code.invalidRequest`): another attempt would fail the same
///   way. The state becomes `closed` (1015 or 1008) and
///   ``WebSocketConnection/terminalError`` holds the error;
/// - ``maxReconnectAttempts`` failed attempts in a row.
///
/// ```swift
/// var policy = ReconnectPolicy(backoff: .exponential(base: .milliseconds(250), maxDelay: .seconds(10)))
/// policy.finalCloseCodes = [WebSocketCloseCode(4001)]
/// ```
public struct ReconnectPolicy: Sendable, Hashable {
    /// The wait before each reconnect attempt.
    public var backoff: Backoff
    /// How many reconnect attempts may fail in a row before the connection closes with 1006;
    /// `nil` tries for ever.
    public var maxReconnectAttempts: Int?
    /// Close codes from the server after which the connection stays closed (1000 always is).
    public var finalCloseCodes: Set<WebSocketCloseCode>

    /// Makes a policy.
    /// - Parameters:
    ///   - backoff: The wait before each attempt; exponential from 0.5 s to 30 s with full
    ///     jitter by default.
    ///   - maxReconnectAttempts: Failed attempts in a row before giving up; `nil` for no limit.
    ///   - finalCloseCodes: Server close codes that end the connection for good.
    public init(
        backoff: Backoff = .exponential(base: .milliseconds(500), maxDelay: .seconds(30)),
        maxReconnectAttempts: Int? = nil,
        finalCloseCodes: Set<WebSocketCloseCode> = []
    ) {
        self.backoff = backoff
        self.maxReconnectAttempts = maxReconnectAttempts.map { max(0, $0) }
        self.finalCloseCodes = finalCloseCodes
    }

    /// A policy with a retry policy's backoff, and as many attempts in a row as it allows.
    /// - Parameters:
    ///   - retryPolicy: The retry policy whose backoff and attempt count to use.
    ///   - finalCloseCodes: Server close codes that end the connection for good.
    public init(retryPolicy: RetryPolicy, finalCloseCodes: Set<WebSocketCloseCode> = []) {
        self.init(backoff: retryPolicy.backoff, maxReconnectAttempts: retryPolicy.maxAttempts, finalCloseCodes: finalCloseCodes)
    }

    /// Reconnects for ever with the default exponential backoff.
    public static let `default` = ReconnectPolicy()
    /// Reconnects at once, without waiting: for tests and benchmarks.
    public static let immediate = ReconnectPolicy(backoff: .none)
    /// Never reconnects: the first loss closes the connection.
    public static let never = ReconnectPolicy(backoff: .none, maxReconnectAttempts: 0)

    /// Whether a close with this code from the server ends the connection for good.
    /// - Parameter code: The server's close code.
    public func isFinal(_ code: WebSocketCloseCode) -> Bool {
        code == .normalClosure || finalCloseCodes.contains(code)
    }
}
