import Crypto
import Foundation
import ReferenceServer
import NIOSSL
import SwiftASN1
import X509

/// A throwaway public key infrastructure for TLS tests, made fresh in memory: a CA, and a
/// server certificate it signs for `127.0.0.1` and `localhost`. P-256 keys throughout.
struct TestCertificates: Sendable {
    /// Where the certificates come from.
    let authority: LocalCertificateAuthority
    /// The CA's key.
    let caKey: P256.Signing.PrivateKey
    /// The CA's self-signed certificate.
    let caCertificate: Certificate
    /// The server's key.
    let serverKey: P256.Signing.PrivateKey
    /// The server's certificate, signed by the CA, valid for `127.0.0.1` and `localhost`.
    let serverCertificate: Certificate

    /// Makes a CA and a server certificate valid from an hour ago for a day (the reference
    /// server's ``ReferenceServer/LocalCertificateAuthority``).
    static func make() throws -> TestCertificates {
        let authority = try LocalCertificateAuthority(name: "Courier tests")
        return TestCertificates(
            authority: authority, caKey: authority.caKey, caCertificate: authority.caCertificate,
            serverKey: authority.serverKey, serverCertificate: authority.serverCertificate
        )
    }

    /// The CA certificate in DER, as ``Courier/TLSPolicy/TrustRoots`` takes it.
    func caDER() throws -> Data { try authority.caDER() }

    /// The server certificate in DER.
    func serverDER() throws -> Data { try authority.serverDER() }

    /// The pin of the CA's key, computed with swift-crypto (independently of the transports).
    var caKeyPin: String { Self.pin(caKey.publicKey) }

    /// The pin of the server's key, computed with swift-crypto.
    var serverKeyPin: String { Self.pin(serverKey.publicKey) }

    /// A pin of a key that appears nowhere in the chain.
    static var unrelatedKeyPin: String { pin(P256.Signing.PrivateKey().publicKey) }

    /// A server TLS configuration presenting the server certificate (the CA is not sent).
    /// - Parameter maximumVersion: The newest TLS version the server speaks; `nil` for any.
    func serverTLSConfiguration(maximumVersion: TLSVersion? = nil) throws -> TLSConfiguration {
        try authority.serverTLSConfiguration(maximumVersion: maximumVersion)
    }

    /// base64 of SHA-256 of the key's SubjectPublicKeyInfo (`derRepresentation` is exactly that).
    private static func pin(_ key: P256.Signing.PublicKey) -> String {
        Data(SHA256.hash(data: key.derRepresentation)).base64EncodedString()
    }
}
