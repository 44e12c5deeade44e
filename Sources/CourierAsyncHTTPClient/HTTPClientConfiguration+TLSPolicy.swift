public import AsyncHTTPClient
public import Courier
import Foundation
import NIOSSL

extension HTTPClient.Configuration {
    /// Applies a Courier ``Courier/TLSPolicy`` to this configuration: the minimum TLS version
    /// and the trust roots go into `tlsConfiguration` (whose certificate verification becomes
    /// `.fullVerification`); pins are checked by the connection initializers
    /// (`http1_1ConnectionDebugInitializer` and `http2ConnectionDebugInitializer`), which
    /// replace any you had set.
    ///
    /// ``AsyncHTTPClientTransport`` calls this for you; call it yourself when you bring your
    /// own `HTTPClient` to ``AsyncHTTPClientTransport/init(client:)``. Keep
    /// `connectionPool.retryConnectionEstablishment = false` so a pin mismatch fails the
    /// request at once instead of AsyncHTTPClient reconnecting until the deadline.
    ///
    /// See ``AsyncHTTPClientTransport`` for what the pin check can see of the chain.
    /// - Parameter policy: The policy.
    /// - Throws: A ``Courier/CourierError`` with code ``Courier/CourierError/Code/invalidRequest``
    ///   when a pin is malformed or a trust root is not a DER certificate.
    public mutating func applyTLSPolicy(_ policy: TLSPolicy) throws {
        try policy.validate()
        let customRoots = try Self.parseCertificates(policy.trustRoots.customCertificates)

        var tls = tlsConfiguration ?? .makeClientConfiguration()
        tls.certificateVerification = .fullVerification
        tls.minimumTLSVersion = Self.nioVersion(policy.minimumVersion)
        switch policy.trustRoots {
        case .system:
            tls.trustRoots = .default
            tls.additionalTrustRoots = []
        case .certificates:
            tls.trustRoots = .certificates(customRoots)
            tls.additionalTrustRoots = []
        case .systemPlus:
            tls.trustRoots = .default
            tls.additionalTrustRoots = [.certificates(customRoots)]
        }
        tlsConfiguration = tls

        guard policy.pinsPublicKeys else {
            http1_1ConnectionDebugInitializer = nil
            http2ConnectionDebugInitializer = nil
            return
        }
        // Only roots that replace the system's say something about where a chain ends.
        let exclusiveRootPins = policy.trustRoots.includesSystemRoots
            ? nil
            : try Set(customRoots.map(PublicKeyPinVerifier.pin(of:)))
        let verifier = PublicKeyPinVerifier(policy: policy, exclusiveRootPins: exclusiveRootPins)
        http1_1ConnectionDebugInitializer = { channel in verifier.verifyConnection(channel) }
        http2ConnectionDebugInitializer = { channel in verifier.verifyConnection(channel) }
    }

    private static func parseCertificates(_ certificates: [Data]) throws -> [NIOSSLCertificate] {
        try certificates.enumerated().map { index, der in
            do {
                return try NIOSSLCertificate(bytes: Array(der), format: .der)
            } catch {
                throw CourierError(
                    code: .invalidRequest,
                    message: "TLS policy: trust root \(index) is not a DER-encoded certificate",
                    underlying: error
                )
            }
        }
    }

    private static func nioVersion(_ version: TLSPolicy.Version) -> TLSVersion {
        switch version {
        case .v1_2: return .tlsv12
        case .v1_3: return .tlsv13
        }
    }
}
