public import AsyncHTTPClient
public import Courier
import NIOSSL

extension HTTPClient.Configuration {
    /// Applies a Courier `TLSPolicy` to this configuration: the minimum TLS version
    /// and the trust roots go into `tlsConfiguration` (whose certificate verification becomes
    /// `.fullVerification`); pins are checked by the connection initializers
    /// (`http1_1ConnectionDebugInitializer` and `http2ConnectionDebugInitializer`), which
    /// replace any you had set.
    ///
    /// ``AsyncHTTPClientTransport`` calls this for you; call it yourself when you make one from
    /// your own configuration with ``AsyncHTTPClientTransport/init(clientConfiguration:eventLoopGroup:)``. Keep
    /// `connectionPool.retryConnectionEstablishment = false` so a pin mismatch fails the
    /// request at once instead of AsyncHTTPClient reconnecting until the deadline.
    ///
    /// See ``AsyncHTTPClientTransport`` for what the pin check can see of the chain.
    /// - Parameter policy: The policy.
    /// - Throws: A `CourierError` with code `CourierError.Code.invalidRequest`
    ///   when a pin is malformed or a trust root is not a DER certificate.
    public mutating func applyTLSPolicy(_ policy: TLSPolicy) throws {
        let resolved = try ResolvedTLSPolicy(policy, base: tlsConfiguration ?? .makeClientConfiguration())
        tlsConfiguration = resolved.configuration
        guard let verifier = resolved.pinVerifier else {
            http1_1ConnectionDebugInitializer = nil
            http2ConnectionDebugInitializer = nil
            return
        }
        http1_1ConnectionDebugInitializer = { channel in verifier.verifyConnection(channel) }
        http2ConnectionDebugInitializer = { channel in verifier.verifyConnection(channel) }
    }
}
