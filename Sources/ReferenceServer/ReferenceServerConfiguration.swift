public import Logging

/// Settings for a ``ReferenceServer``.
///
/// The defaults give a quiet server on an ephemeral loopback port:
/// ```swift
/// var configuration = ReferenceServerConfiguration()
/// configuration.port = 8080
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
    /// The bearer token every `/api` route requires.
    public var demoToken: String
    /// The logger for the server and its requests; `nil` uses a logger at `.warning`.
    public var logger: Logger?

    /// Creates a configuration.
    /// - Parameters:
    ///   - host: The address to bind to.
    ///   - port: The port to bind to; 0 for any free port.
    ///   - seed: The seed of the synthetic content.
    ///   - demoToken: The bearer token every `/api` route requires.
    ///   - logger: The logger to use; `nil` for a logger at `.warning`.
    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        seed: UInt64 = 42,
        demoToken: String = "courier-demo-token",
        logger: Logger? = nil
    ) {
        self.host = host
        self.port = port
        self.seed = seed
        self.demoToken = demoToken
        self.logger = logger
    }

    /// The logger to use: the configured one, or a quiet default.
    var effectiveLogger: Logger {
        if let logger { return logger }
        var quiet = Logger(label: "courier.reference-server")
        quiet.logLevel = .warning
        return quiet
    }
}
