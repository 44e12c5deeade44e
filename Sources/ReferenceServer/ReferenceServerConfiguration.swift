public import NIOSSL
public import Logging

/// Settings for a ``ReferenceServer``.
///
/// The defaults give a quiet server on an ephemeral loopback port with a demo account:
/// ```swift
/// var configuration = ReferenceServerConfiguration()
/// configuration.port = 8080
/// configuration.accessTokenLifetime = .seconds(5)
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
    /// How long an access token is valid after it is issued.
    public var accessTokenLifetime: Duration
    /// The logger for the server and its requests; `nil` uses a logger at `.warning`.
    public var logger: Logger?
    /// When set, the server speaks HTTPS with this configuration (its certificate and key), and
    /// its base URL starts with `https`. `nil` (the default) serves plain HTTP.
    public var tlsConfiguration: TLSConfiguration?
    /// How long a PAT analysis stays `processing` after it is submitted; zero (the default)
    /// finishes it at once. Tests that poll for a result set it higher.
    public var analysisProcessingTime: Duration = .zero

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
