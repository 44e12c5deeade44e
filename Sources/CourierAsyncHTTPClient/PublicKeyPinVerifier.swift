package import Courier
import Crypto
import Foundation
package import NIOCore
package import NIOSSL

/// Checks a new connection's certificates against a `TLSPolicy`'s pins, after the
/// TLS handshake and before any request byte is written on it.
///
/// Shared (package access) by the engines on NIOSSL: AsyncHTTPClient calls
/// ``verifyConnection(_:)`` as a connection initializer; CourierWebSocket's `WSClientEngine`
/// calls ``verify(_:)`` from a channel handler when the handshake completes, holding back
/// the upgrade request until it passes.
///
/// AsyncHTTPClient runs its connection initializers once per connection, after the handshake
/// and ALPN; a failed future fails the connection attempt, and with
/// `retryConnectionEstablishment` off the error reaches the waiting requests unchanged
/// (`HTTPConnectionPool.ConnectionFactory.makeConnection` and the state machine's
/// `failedToCreateNewConnection`). No request byte has been written at that point.
///
/// What it can see: AsyncHTTPClient (and `WSClientEngine`) build their `NIOSSLClientHandler`
/// without a custom verification callback, so NIOSSL's `peerValidatedCertificateChain` is
/// `nil` and only the leaf (`peerCertificate`) is visible. The verifier uses the validated chain if NIOSSL ever
/// offers it; otherwise it checks the leaf, and it also accepts the connection when the trust
/// roots are exclusively custom (`TLSPolicy.TrustRoots.certificates(_:)`) and every
/// one of them is pinned: BoringSSL has then proved the chain ends at a pinned key. Pins of
/// intermediate CAs, or of a root picked from several, cannot be checked, and fail.
package struct PublicKeyPinVerifier: Sendable {
    /// The policy whose pins are checked.
    package let policy: TLSPolicy
    /// The pins of the trust roots when they replace the system's; `nil` when system roots count.
    package let exclusiveRootPins: Set<String>?

    /// What this engine cannot see, for the mismatch's description.
    static let leafOnlyNote = "NIOSSL shows AsyncHTTPClient and WSClientEngine only the leaf certificate, so pins of "
        + "intermediate CAs cannot be checked: pin the leaf key, or trust only .certificates roots that are all pinned"

    /// The pin of a certificate's key: base64 of SHA-256 of its DER SubjectPublicKeyInfo.
    /// - Parameter certificate: The certificate.
    /// - Returns: The pin, without the `sha256/` prefix.
    /// - Throws: NIOSSL's error if the key cannot be read.
    package static func pin(of certificate: NIOSSLCertificate) throws -> String {
        let spki = try certificate.extractPublicKey().toSPKIBytes()
        return TLSPolicy.spkiPin(sha256Digest: SHA256.hash(data: spki))
    }

    /// The connection initializer: succeeds when a pinned key is found, and otherwise fails with
    /// `TLSPolicy.PinMismatch` and closes the connection.
    /// - Parameter channel: The connection's channel, its handshake done.
    /// - Returns: A future that succeeds when the connection may be used.
    func verifyConnection(_ channel: any Channel) -> EventLoopFuture<Void> {
        channel.eventLoop.submit {
            do {
                try verify(channel.pipeline.syncOperations)
            } catch {
                // Close on a later tick, after AsyncHTTPClient has recorded the failed attempt;
                // it ignores the close of a connection it has already dropped.
                channel.eventLoop.execute { channel.close(promise: nil) }
                throw error
            }
        }
    }

    /// Checks the pins against the TLS handler of a pipeline whose handshake is done; call on
    /// the channel's event loop.
    /// - Parameter pipeline: The connection's pipeline, holding its `NIOSSLHandler`.
    /// - Throws: `TLSPolicy.PinMismatch` when no pinned key is found (or the
    ///   connection has no TLS handler, or the server presented no certificate).
    package func verify(_ pipeline: ChannelPipeline.SynchronousOperations) throws {
        let validatedChain: ValidatedCertificateChain?
        let leaf: NIOSSLCertificate?
        do {
            validatedChain = try pipeline.nioSSL_peerValidatedCertificateChain()
            leaf = try pipeline.nioSSL_peerCertificate()
        } catch {
            throw TLSPolicy.PinMismatch(
                seenPins: [],
                pinnedCount: policy.pinnedPublicKeys.count,
                engineNote: "the connection does not use TLS"
            )
        }
        if let validatedChain {
            try policy.checkPins(validatedChain.map(Self.pin(of:)))
            return
        }
        guard let leaf else {
            throw TLSPolicy.PinMismatch(seenPins: [], pinnedCount: policy.pinnedPublicKeys.count, engineNote: "the server presented no certificate")
        }
        let leafPin = try Self.pin(of: leaf)
        if let exclusiveRootPins, !exclusiveRootPins.isEmpty, exclusiveRootPins.isSubset(of: policy.pinnedPublicKeys) {
            // The handshake validated the chain up to one of these roots, and each is pinned.
            return
        }
        try policy.checkPins([leafPin], engineNote: Self.leafOnlyNote)
    }
}
