package import Courier
import Foundation
package import NIOSSL

/// A `TLSPolicy` in NIOSSL's terms, shared by the engines that run on NIOSSL:
/// this module's AsyncHTTPClient transport and CourierWebSocket's `WSClientEngine`.
///
/// - ``configuration`` carries the minimum version and the trust roots, with
///   `.fullVerification` (chain and host name), so BoringSSL fails a handshake that breaks them.
/// - ``pinVerifier`` checks the pins once a handshake is done, before any request byte is
///   written; each engine calls it at that point in its own way.
///
/// Package API: not for users, who hand a `TLSPolicy` to a transport or an engine.
package struct ResolvedTLSPolicy: Sendable {
    /// A client configuration with the policy's minimum version and trust roots.
    package let configuration: TLSConfiguration
    /// The pin check, or `nil` when the policy pins no key.
    package let pinVerifier: PublicKeyPinVerifier?

    /// Resolves a policy.
    /// - Parameters:
    ///   - policy: The policy.
    ///   - base: The configuration to apply it to; NIOSSL's client defaults by default.
    /// - Throws: A `CourierError` with code `CourierError.Code.invalidRequest`
    ///   when a pin is malformed or a trust root is not a DER certificate.
    package init(_ policy: TLSPolicy, base: TLSConfiguration = .makeClientConfiguration()) throws {
        try policy.validate()
        let customRoots = try Self.parseCertificates(policy.trustRoots.customCertificates)

        var tls = base
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
        self.configuration = tls

        guard policy.pinsPublicKeys else {
            self.pinVerifier = nil
            return
        }
        // Only roots that replace the system's say something about where a chain ends.
        let exclusiveRootPins = policy.trustRoots.includesSystemRoots
            ? nil
            : try Set(customRoots.map(PublicKeyPinVerifier.pin(of:)))
        self.pinVerifier = PublicKeyPinVerifier(policy: policy, exclusiveRootPins: exclusiveRootPins)
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
