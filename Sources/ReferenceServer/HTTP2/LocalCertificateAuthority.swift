public import Crypto
public import Foundation
public import NIOSSL
import SwiftASN1
public import X509

/// A throwaway certificate authority made in memory, and a server certificate it signs for
/// `127.0.0.1` and `localhost`: what `courier serve --tls` presents when it is given no
/// certificate of its own, and what tests trust. P-256 keys; valid from an hour ago for a day.
///
/// A client trusts the server by trusting ``caPEM()`` (`courier get --ca FILE`, or
/// `TLSPolicy.TrustRoots.certificates` with ``caDER()``). Nothing here writes a key to a file.
/// The certificates expire a day after they are made: a server meant to run longer takes a
/// certificate of its own (`courier serve --tls --certificate FILE --key FILE`).
public struct LocalCertificateAuthority: Sendable {
    /// The CA's key.
    public let caKey: P256.Signing.PrivateKey
    /// The CA's self-signed certificate.
    public let caCertificate: Certificate
    /// The server's key.
    public let serverKey: P256.Signing.PrivateKey
    /// The server's certificate, signed by the CA, valid for `127.0.0.1` and `localhost`.
    public let serverCertificate: Certificate

    /// Makes a CA and a server certificate.
    /// - Parameters:
    ///   - name: The organisation named in both certificates.
    ///   - now: When they start to be valid, less an hour.
    public init(name: String = "Courier reference server", now: Date = Date()) throws {
        let caKey = P256.Signing.PrivateKey()
        let caName = try DistinguishedName {
            OrganizationName(name)
            CommonName("\(name) CA")
        }
        let caCertificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(caKey.publicKey),
            notValidBefore: now - 3_600, notValidAfter: now + 86_400, issuer: caName, subject: caName,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: .init(caKey)
        )
        let serverKey = P256.Signing.PrivateKey()
        let serverCertificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(serverKey.publicKey),
            notValidBefore: now - 3_600, notValidAfter: now + 86_400, issuer: caName,
            subject: try DistinguishedName { CommonName("localhost") },
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames([.dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))])
            },
            issuerPrivateKey: .init(caKey)
        )
        self.caKey = caKey
        self.caCertificate = caCertificate
        self.serverKey = serverKey
        self.serverCertificate = serverCertificate
    }

    /// The CA certificate in DER.
    public func caDER() throws -> Data { try Self.der(caCertificate) }

    /// The server certificate in DER.
    public func serverDER() throws -> Data { try Self.der(serverCertificate) }

    /// The CA certificate in PEM, for a file a client trusts.
    public func caPEM() throws -> String { try caCertificate.serializeAsPEM().pemString }

    /// A server TLS configuration presenting the server certificate (the CA is not sent).
    /// - Parameter maximumVersion: The newest TLS version the server speaks; `nil` for any.
    public func serverTLSConfiguration(maximumVersion: TLSVersion? = nil) throws -> TLSConfiguration {
        let certificate = try NIOSSLCertificate(bytes: Array(serverDER()), format: .der)
        let key = try NIOSSLPrivateKey(bytes: Array(serverKey.pemRepresentation.utf8), format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
        configuration.maximumTLSVersion = maximumVersion
        return configuration
    }

    private static func der(_ certificate: Certificate) throws -> Data {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return Data(serializer.serializedBytes)
    }
}
