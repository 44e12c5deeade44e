public import NIOSSL
public import Logging
public import Tracing

/// Settings for a ``ReferenceServer``.
///
/// The defaults give a quiet server on an ephemeral loopback port with a demo account, no
/// `/debug` routes, passwords hashed at today's recommended cost, sign-in throttling and a
/// bounded idempotency store:
/// ```swift
/// var configuration = ReferenceServerConfiguration()
/// configuration.port = 8080
/// configuration.accessTokenLifetime = .seconds(5)
/// configuration.enablesDebugRoutes = true      // a test or demo server
/// configuration.passwordHashRounds = 1_000     // holding throwaway accounts only
/// let server = ReferenceServer(configuration: configuration)
/// ```
public struct ReferenceServerConfiguration: Sendable {
    /// The address to bind to. Defaults to the IPv4 loopback address.
    public var host: String
    /// The port to bind to; 0 asks the system for any free port.
    public var port: Int
    /// The seed of the pseudo-random generator behind the synthetic opinions.
    ///
    /// Two servers with the same seed that receive the same requests give the same content.
    public var seed: UInt64
    /// The email of the demo account the server starts with, which owns the demo radars.
    public var demoEmail: String
    /// The password of the demo account.
    public var demoPassword: String
    /// The demo account's personal intervals.icu-style API key, sent as HTTP Basic with the
    /// user name `API_KEY` to the intervals routes. `courier-demo-api-key` by default.
    public var demoAPIKey: String = "courier-demo-api-key"
    /// How long an access token is valid after it is issued.
    public var accessTokenLifetime: Duration
    /// The logger for the server and its requests; `nil` uses a logger at `.warning`.
    public var logger: Logger?
    /// When set, the server speaks HTTPS with this configuration (its certificate and key), and
    /// its base URL starts with `https`. `nil` (the default) serves plain HTTP.
    public var tlsConfiguration: TLSConfiguration?
    /// Whether HTTPS connections may speak HTTP/2, and how the server drains them; `nil` (the
    /// default) serves HTTP/1.1 only. Applies only with ``tlsConfiguration``: the server offers
    /// `h2` and `http/1.1` by ALPN (WebSockets stay on HTTP/1.1; see ``HTTP2Options``).
    public var http2: HTTP2Options?
    /// The tracer that records a server span per request, continuing the trace whose
    /// propagation fields (`traceparent`) the request carries; `nil` (the default) records none.
    public var tracer: (any Tracer)?
    /// How long a PAT analysis stays `processing` after it is submitted; zero (the default)
    /// finishes it at once. Tests that poll for a result set it higher.
    public var analysisProcessingTime: Duration = .zero
    /// Whether the diagnostic and control routes under `/debug` are mounted: fixed statuses,
    /// odd bodies, slow and truncated answers, blobs and upload sinks, fault scripting, token
    /// controls (expire, revoke, lifetime, verification codes), real-time drops and the
    /// `/debug/ws/echo` WebSocket. None of them asks for a token.
    ///
    /// `false` (the default): every `/debug/…` request answers the usual JSON 404, so a server
    /// that others can reach offers no way to script faults or read verification codes. Turn it
    /// on for tests, demos and benchmarks (`courier serve --debug-routes` does). The in-process
    /// controls (``ReferenceServer/faults``, ``ReferenceServer/realtime``,
    /// ``ReferenceServer/bodyFaults`` and the test controls) work either way.
    public var enablesDebugRoutes: Bool = false
    /// The PBKDF2-HMAC-SHA256 rounds per password hash: 600,000 by default, OWASP's
    /// recommendation for PBKDF2-HMAC-SHA256 (2023). Values below 1 count as 1.
    ///
    /// Every register and login spends this many rounds, and so does creating the server (it
    /// hashes the demo password). Tests and the in-process demo lower it (for example to 1,000)
    /// to stay fast; a server that holds real passwords should not.
    public var passwordHashRounds: Int = 600_000
    /// How many failed sign-ins in a row for one email, within ``loginThrottleWindow``, lock
    /// that email: 5 by default. Values below 1 count as 1.
    ///
    /// While locked, `POST /api/v1/auth/login` for that email answers 429 `too_many_attempts`
    /// with `Retry-After` (in seconds), even with the right password. Emails are compared
    /// after trimming and lowercasing, and unknown emails are counted the same way, so the
    /// answer does not tell which accounts exist. A successful sign-in clears the count.
    public var loginFailureLimit: Int = 5
    /// How long failures count towards ``loginFailureLimit``, counted from the first failure
    /// of a run, and how long an email stays locked once it reaches the limit: 15 minutes by
    /// default. Zero or less turns throttling off.
    public var loginThrottleWindow: Duration = .seconds(15 * 60)
    /// The most `Idempotency-Key` entries (across users) the server keeps: 10,000 by default.
    /// Values below 1 count as 1.
    ///
    /// A new key that finds the store full first evicts an in-flight entry past
    /// ``idempotencyInFlightTimeout``, else the oldest completed entry (a repeat of that request
    /// then runs again); when every entry is a request still running, the new request answers
    /// 503 `idempotency_store_full` with `Retry-After` rather than evicting one, which would let
    /// a duplicate run twice.
    public var idempotencyKeyLimit: Int = 10_000
    /// How long a keyed request may stay in flight before its key counts as abandoned: 60 s by
    /// default. After that a repeat with the same key runs afresh instead of answering 409
    /// `idempotency_key_in_flight`, so a request that died in the middle of a write does not
    /// hold its key forever; the first request's answer, if it ever comes, is then not stored.
    /// Keep it above the longest write the server handles.
    public var idempotencyInFlightTimeout: Duration = .seconds(60)

    /// Creates a configuration.
    /// - Parameters:
    ///   - host: The address to bind to.
    ///   - port: The port to bind to; 0 for any free port.
    ///   - seed: The seed of the synthetic content.
    ///   - demoEmail: The email of the demo account (verified from the start).
    ///   - demoPassword: The password of the demo account.
    ///   - accessTokenLifetime: How long an access token is valid after it is issued.
    ///   - logger: The logger to use; `nil` for a logger at `.warning`.
    ///   - tlsConfiguration: The server's TLS configuration, for HTTPS; `nil` for plain HTTP.
    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        seed: UInt64 = 42,
        demoEmail: String = "demo@courier.dev",
        demoPassword: String = "courier-demo",
        accessTokenLifetime: Duration = .seconds(900),
        logger: Logger? = nil,
        tlsConfiguration: TLSConfiguration? = nil
    ) {
        self.host = host
        self.port = port
        self.seed = seed
        self.demoEmail = demoEmail
        self.demoPassword = demoPassword
        self.accessTokenLifetime = accessTokenLifetime
        self.logger = logger
        self.tlsConfiguration = tlsConfiguration
    }

    /// The logger to use: the configured one, or a quiet default.
    var effectiveLogger: Logger {
        if let logger { return logger }
        var quiet = Logger(label: "courier.reference-server")
        quiet.logLevel = .warning
        return quiet
    }
}
