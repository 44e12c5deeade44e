public import Foundation

/// How a transport secures HTTPS: the oldest TLS version it accepts, the certificates it
/// trusts, and, optionally, the public keys it pins.
///
/// The policy is a value that any engine can apply; the core knows no TLS library. Give it to
/// a transport (`AsyncHTTPClientTransport.Configuration.tls`, or
/// `URLSessionTransport(configuration:tls:)`); TLS failures, pin mismatches included, end in
/// a ``CourierError`` with code ``CourierError/Code/tlsFailure``, which retry policies do not
/// retry unless told to.
///
/// ```swift
/// var tls = TLSPolicy(minimumVersion: .v1_3)
/// // Each pin reads "sha256/" followed by 44 base64 characters, or just the 44 characters.
/// tls.pinnedPublicKeys = [currentServerKeyPin, backupServerKeyPin]
/// let transport = AsyncHTTPClientTransport(configuration: .init(tls: tls))
/// ```
///
/// ## Pins
/// A pin is the base64 encoding of the SHA-256 digest of a certificate's DER-encoded
/// SubjectPublicKeyInfo: the format of HPKP and OkHttp pins. Write it with or without the
/// `sha256/` prefix. A connection is accepted when **any** certificate of the server's
/// validated chain (the leaf, an intermediate or the root) carries a pinned key, so pinning
/// a CA's key lets the server rotate its own key under that CA. Pin a backup key as well:
/// a pin that no longer matches locks every client out until it is updated. Pinning never
/// replaces validation: the chain must first be trusted by ``trustRoots``.
///
/// Each engine documents what it can see of the chain; where it cannot check a pin it fails
/// the connection rather than ignoring the pin.
public struct TLSPolicy: Sendable, Hashable {
    /// The oldest TLS version the policy accepts.
    public enum Version: Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
        /// TLS 1.2 (RFC 5246) or newer.
        case v1_2
        /// TLS 1.3 (RFC 8446) only.
        case v1_3

        /// The version's usual name, such as `TLS 1.3`.
        public var description: String {
            switch self {
            case .v1_2: return "TLS 1.2"
            case .v1_3: return "TLS 1.3"
            }
        }
    }

    /// The certificates a server's chain must lead to.
    public enum TrustRoots: Sendable, Hashable {
        /// The operating system's trust store.
        case system
        /// Only these DER-encoded certificates: for a private CA or a self-signed server.
        case certificates([Data])
        /// The operating system's trust store and these DER-encoded certificates.
        case systemPlus([Data])

        /// The DER-encoded certificates added to (or replacing) the system's: empty for ``system``.
        public var customCertificates: [Data] {
            switch self {
            case .system: return []
            case .certificates(let certificates), .systemPlus(let certificates): return certificates
            }
        }

        /// Whether the operating system's trust store is consulted.
        public var includesSystemRoots: Bool {
            switch self {
            case .system, .systemPlus: return true
            case .certificates: return false
            }
        }
    }

    /// The oldest TLS version accepted; ``Version/v1_2`` by default.
    public var minimumVersion: Version
    /// The certificates a server's chain must lead to; ``TrustRoots/system`` by default.
    public var trustRoots: TrustRoots
    /// The pinned keys, each the base64 SHA-256 digest of a DER SubjectPublicKeyInfo.
    ///
    /// Assigned pins may carry the `sha256/` prefix; they are stored without it, so
    /// `sha256/X` and `X` are the same pin. Empty (the default) means no pinning.
    public var pinnedPublicKeys: Set<String> {
        get { normalizedPins }
        set { normalizedPins = Set(newValue.map(Self.normalizedPin)) }
    }

    private var normalizedPins: Set<String>

    /// The prefix HPKP and OkHttp write before a pin.
    public static let pinPrefix = "sha256/"

    /// Makes a policy.
    /// - Parameters:
    ///   - minimumVersion: The oldest TLS version accepted; TLS 1.2 by default.
    ///   - trustRoots: The certificates a chain must lead to; the system's by default.
    ///   - pinnedPublicKeys: Pins, with or without the `sha256/` prefix; none by default.
    public init(
        minimumVersion: Version = .v1_2,
        trustRoots: TrustRoots = .system,
        pinnedPublicKeys: Set<String> = []
    ) {
        self.minimumVersion = minimumVersion
        self.trustRoots = trustRoots
        self.normalizedPins = Set(pinnedPublicKeys.map(Self.normalizedPin))
    }

    /// Whether any public key is pinned.
    public var pinsPublicKeys: Bool { !normalizedPins.isEmpty }

    /// Whether the policy needs more than the engine's default trust evaluation: pins, or
    /// trust roots other than the system's.
    public var needsCustomTrustEvaluation: Bool {
        pinsPublicKeys || trustRoots != .system
    }

    /// A pin without its `sha256/` prefix and surrounding white space.
    /// - Parameter pin: A pin, with or without the prefix.
    /// - Returns: The bare base64 digest.
    public static func normalizedPin(_ pin: String) -> String {
        let trimmed = pin.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.lowercased().hasPrefix(pinPrefix) else { return trimmed }
        return String(trimmed.dropFirst(pinPrefix.count))
    }

    /// The pin for a key, given the SHA-256 digest of its DER SubjectPublicKeyInfo.
    ///
    /// The core has no hashing of its own: transports compute the digest with their TLS
    /// library and format it here, so every engine writes pins the same way.
    /// - Parameter sha256Digest: The 32 bytes of the digest.
    /// - Returns: The digest in base64, without the `sha256/` prefix.
    public static func spkiPin(sha256Digest: some Sequence<UInt8>) -> String {
        Data(sha256Digest).base64EncodedString()
    }

    /// Checks that the policy can be applied: every pin is the base64 of 32 bytes, and a
    /// ``TrustRoots/certificates(_:)`` list is not empty.
    ///
    /// Transports call this when they are made, so a typo in a pin fails loudly instead of
    /// never matching.
    /// - Throws: A ``CourierError`` with code ``CourierError/Code/invalidRequest`` naming the problem.
    public func validate() throws {
        let malformed = normalizedPins.filter { Data(base64Encoded: $0)?.count != 32 }.sorted()
        if !malformed.isEmpty {
            throw CourierError(
                code: .invalidRequest,
                message: "TLS policy: these pins are not the base64 of a SHA-256 digest: \(malformed.joined(separator: ", "))"
            )
        }
        if case .certificates(let certificates) = trustRoots, certificates.isEmpty {
            throw CourierError(code: .invalidRequest, message: "TLS policy: the trust roots list no certificate, so no server can be trusted")
        }
    }

    /// Checks the keys of a server's validated certificate chain against the pins.
    ///
    /// Passes when nothing is pinned, or when any of `chainPins` is pinned.
    /// - Parameters:
    ///   - chainPins: The pins of the keys the engine saw in the validated chain, leaf first.
    ///   - engineNote: What the engine could not see, added to the failure's description.
    /// - Throws: ``PinMismatch`` when keys are pinned and none of `chainPins` is one of them.
    public func checkPins(_ chainPins: [String], engineNote: String? = nil) throws {
        guard pinsPublicKeys else { return }
        if chainPins.contains(where: { normalizedPins.contains(Self.normalizedPin($0)) }) { return }
        throw PinMismatch(seenPins: chainPins.map(Self.normalizedPin), pinnedCount: normalizedPins.count, engineNote: engineNote)
    }
}

extension TLSPolicy {
    /// No certificate of the server's chain carries a pinned public key.
    ///
    /// Transports wrap it in a ``CourierError`` with code ``CourierError/Code/tlsFailure``
    /// (its ``CourierError/underlying``); the connection is closed before any byte of the
    /// request is written.
    public struct PinMismatch: Error, Sendable, Hashable, CustomStringConvertible {
        /// The pins of the keys the engine saw in the server's chain, leaf first, without prefix.
        public var seenPins: [String]
        /// How many keys the policy pins.
        public var pinnedCount: Int
        /// What the engine could not see of the chain, if anything.
        public var engineNote: String?

        /// Makes a mismatch.
        /// - Parameters:
        ///   - seenPins: The pins of the keys seen in the chain, leaf first.
        ///   - pinnedCount: How many keys the policy pins.
        ///   - engineNote: What the engine could not see of the chain.
        public init(seenPins: [String], pinnedCount: Int, engineNote: String? = nil) {
            self.seenPins = seenPins
            self.pinnedCount = pinnedCount
            self.engineNote = engineNote
        }

        /// A sentence naming the mismatch and listing the pins seen, ready to paste into a policy.
        public var description: String {
            let seen = seenPins.isEmpty
                ? "no certificate"
                : seenPins.map { TLSPolicy.pinPrefix + $0 }.joined(separator: ", ")
            var text = "public key pin mismatch: none of the \(pinnedCount) pinned keys is in the server's certificate chain (seen: \(seen))"
            if let engineNote { text += "; \(engineNote)" }
            return text
        }
    }
}
