import Courier
import Crypto
import Foundation

/// How entries are protected at rest: the digests that stand in for keys in the lookup
/// columns, and the sealing of payloads.
///
/// - Without an encryption key, lookup columns hold SHA-256 digests and payloads are stored
///   as they are (the plain key and response are readable inside the payload).
/// - With a key, two subkeys are derived with HKDF-SHA256: one seals payloads with AES-GCM
///   (random nonce, stored as the `combined` nonce + ciphertext + tag), the other makes the
///   lookup digests HMAC-SHA256 values, so that someone holding the file cannot even confirm
///   a guess of which URL was visited. A different key finds nothing: its digests differ.
struct EntryProtection: Sendable {
    /// Sealing or opening a payload failed (wrong key, damaged bytes).
    struct SealingFailed: Error {}

    private let sealingKey: SymmetricKey?
    private let digestKey: SymmetricKey?

    /// Makes the protection for an optional encryption key.
    init(encryptionKey: SymmetricKey?) {
        sealingKey = encryptionKey.map { Self.derive(from: $0, purpose: "payload") }
        digestKey = encryptionKey.map { Self.derive(from: $0, purpose: "lookup") }
    }

    /// The secret for the cache's credential digests, derived from an encryption key; `nil`
    /// without one.
    static func credentialDigestSecret(from encryptionKey: SymmetricKey?) -> [UInt8]? {
        encryptionKey.map { derive(from: $0, purpose: "credential digests").withUnsafeBytes { Array($0) } }
    }

    /// Whether payloads are sealed.
    var isEncrypting: Bool { sealingKey != nil }

    /// The payload as it will be stored: sealed when there is a key.
    func seal(_ plaintext: Data) throws -> Data {
        guard let sealingKey else { return plaintext }
        guard let combined = try AES.GCM.seal(plaintext, using: sealingKey).combined else { throw SealingFailed() }
        return combined
    }

    /// The payload as it was before ``seal(_:)``.
    /// - Throws: When the stored bytes were not sealed with this key or were altered.
    func open(_ stored: Data) throws -> Data {
        guard let sealingKey else { return stored }
        return try AES.GCM.open(AES.GCM.SealedBox(combined: stored), using: sealingKey)
    }

    /// The lookup column for a key: a digest of its partition, method and URL.
    func digest(of key: CacheKey) -> Data {
        digest(domain: "key", parts: [key.partition, key.method, key.url])
    }

    /// The column used to remove a partition: a digest of the partition alone.
    func digest(ofPartition partition: String) -> Data {
        digest(domain: "partition", parts: [partition])
    }

    /// A digest of a URL prefix (`CachePrefix`), for removing a collection.
    func digest(ofPrefix prefix: String) -> Data {
        digest(domain: "prefix", parts: [prefix])
    }

    /// The column that tells variants apart: a digest of the sorted `Vary` values.
    func digest(ofVaryValues varyValues: [String: String?]) -> Data {
        let sorted = varyValues.sorted { $0.key < $1.key }
        let parts = sorted.flatMap { name, value in [name, value.map { "=" + $0 } ?? "absent"] }
        return digest(domain: "vary", parts: parts)
    }

    /// A digest of length-prefixed parts (so that no two lists of parts share an input),
    /// prefixed by a domain (so that a key's digest never equals a partition's).
    private func digest(domain: String, parts: [String]) -> Data {
        var input = Data("courier.sqlite-cache.\(domain)\n".utf8)
        for part in parts {
            input.append(contentsOf: "\(part.utf8.count):".utf8)
            input.append(contentsOf: part.utf8)
        }
        if let digestKey {
            return Data(HMAC<SHA256>.authenticationCode(for: input, using: digestKey))
        }
        return Data(SHA256.hash(data: input))
    }

    private static func derive(from key: SymmetricKey, purpose: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: key,
            info: Data("courier.sqlite-cache.\(purpose)".utf8),
            outputByteCount: 32
        )
    }
}
