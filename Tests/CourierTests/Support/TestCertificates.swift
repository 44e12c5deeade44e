import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// A throwaway public key infrastructure for TLS tests, made fresh in memory: a CA, and a
/// server certificate it signs for `127.0.0.1` and `localhost`. P-256 keys throughout.
struct TestCertificates: Sendable {
    /// The CA's key.
    let caKey: P256.Signing.PrivateKey
    /// The CA's self-signed certificate.
    let caCertificate: Certificate
    /// The server's key.
    let serverKey: P256.Signing.PrivateKey
    /// The server's certificate, signed by the CA, valid for `127.0.0.1` and `localhost`.
    let serverCertificate: Certificate

    /// Makes a CA and a server certificate valid from an hour ago for a day.
    static func make() throws -> TestCertificates {
        let now = Date()
        let caKey = P256.Signing.PrivateKey()
        let caName = try DistinguishedName {
            OrganizationName("Courier tests")
            CommonName("Courier Test CA")
        }
        let caCertificate = try Certificate(
            version: .v3,
            serialNumber: .init(),
            publicKey: .init(caKey.publicKey),
            notValidBefore: now - 3_600,
            notValidAfter: now + 86_400,
            issuer: caName,
            subject: caName,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: .init(caKey)
        )

        let serverKey = P256.Signing.PrivateKey()
        let serverCertificate = try Certificate(
            version: .v3,
            serialNumber: .init(),
            publicKey: .init(serverKey.publicKey),
            notValidBefore: now - 3_600,
            notValidAfter: now + 86_400,
            issuer: caName,
            subject: try DistinguishedName { CommonName("localhost") },
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames([
                    .dnsName("localhost"),
                    .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
                ])
            },
            issuerPrivateKey: .init(caKey)
        )
        return TestCertificates(caKey: caKey, caCertificate: caCertificate, serverKey: serverKey, serverCertificate: serverCertificate)
    }

    /// The CA certificate in DER, as ``Courier/TLSPolicy/TrustRoots`` takes it.
    func caDER() throws -> Data { try Self.der(caCertificate) }

    /// The server certificate in DER.
    func serverDER() throws -> Data { try Self.der(serverCertificate) }

    /// The pin of the CA's key, computed with swift-crypto (independently of the transports).
    var caKeyPin: String { Self.pin(caKey.publicKey) }

    /// The pin of the server's key, computed with swift-crypto.
    var serverKeyPin: String { Self.pin(serverKey.publicKey) }

    /// A pin of a key that appears nowhere in the chain.
    static var unrelatedKeyPin: String { pin(P256.Signing.PrivateKey().publicKey) }

    /// A server TLS configuration presenting the server certificate (the CA is not sent).
    /// - Parameter maximumVersion: The newest TLS version the server speaks; `nil` for any.
    func serverTLSConfiguration(maximumVersion: TLSVersion? = nil) throws -> TLSConfiguration {
        let certificate = try NIOSSLCertificate(bytes: Array(serverDER()), format: .der)
        let key = try NIOSSLPrivateKey(bytes: Array(serverKey.pemRepresentation.utf8), format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(certificate)],
            privateKey: .privateKey(key)
        )
        configuration.maximumTLSVersion = maximumVersion
        return configuration
    }

    private static func der(_ certificate: Certificate) throws -> Data {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return Data(serializer.serializedBytes)
    }

    /// base64 of SHA-256 of the key's SubjectPublicKeyInfo (`derRepresentation` is exactly that).
    private static func pin(_ key: P256.Signing.PublicKey) -> String {
        Data(SHA256.hash(data: key.derRepresentation)).base64EncodedString()
    }
}
