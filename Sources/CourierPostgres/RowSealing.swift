import Crypto
import Foundation

/// How a store's encoded values are kept in their rows: as JSON, sealed with AES-GCM when the
/// store has an encryption key, and how lookup values become keyed digests.
///
/// With a key, two subkeys are derived with HKDF-SHA256: one seals (a random nonce, stored as
/// nonce + ciphertext + tag), the other keys the lookup digests (HMAC-SHA256), so someone who
/// reads the tables cannot even confirm a guess of which URL was read. Without one, values are
/// stored as they are, and digests are HMACs keyed with the secret the store gives: the cache's
/// random one, shared through the database; a fixed one for the outbox, credentials and quotas,
/// whose rows then hold what their digests stand for in the clear anyway.
struct RowSealing: Sendable {
    private let sealingKey: SymmetricKey?
    private let digestKey: SymmetricKey

    /// Makes the sealing of a store.
    /// - Parameters:
    ///   - encryptionKey: The key that seals values, if any.
    ///   - digestSecret: The store's own secret, for digests when there is no key.
    init(encryptionKey: SymmetricKey?, digestSecret: [UInt8]) {
        sealingKey = encryptionKey.map { Self.derive(from: $0, purpose: "payload") }
        digestKey = encryptionKey.map { Self.derive(from: $0, purpose: "lookup") } ?? SymmetricKey(data: digestSecret)
    }

    /// A key derived from `key` for one purpose.
    static func derive(from key: SymmetricKey, purpose: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: key, info: Data("courier.postgres.\(purpose)".utf8), outputByteCount: 32)
    }

    /// A value as it is stored: JSON, sealed when there is a key.
    func seal<Value: Encodable>(_ value: Value) throws -> Data {
        // Dates as Swift keeps them (seconds since 2001, a Double), so they read back exactly:
        // a quota's settlement finds its call's date by equality.
        let encoder = JSONEncoder()
        let plaintext = try encoder.encode(value)
        guard let sealingKey else { return plaintext }
        guard let combined = try AES.GCM.seal(plaintext, using: sealingKey).combined else {
            throw PostgresStoreError(code: .unreadableRow, message: "a value could not be sealed")
        }
        return combined
    }

    /// A stored value read back; `rowVersion` is the format the row says it was written in.
    /// - Throws: ``PostgresStoreError/Code/rowTooNew`` for a row of a newer format,
    ///   ``PostgresStoreError/Code/unreadableRow`` for one that cannot be opened or read.
    func open<Value: Decodable>(_ type: Value.Type, from stored: Data, rowVersion: Int, table: String) throws -> Value {
        guard rowVersion <= PostgresSchema.rowVersion else {
            throw PostgresStoreError(
                code: .rowTooNew,
                message: "a row of \(table) was written in format \(rowVersion) by a newer Courier; this one reads up to \(PostgresSchema.rowVersion) and refuses it"
            )
        }
        do {
            var plaintext = stored
            if let sealingKey { plaintext = try AES.GCM.open(AES.GCM.SealedBox(combined: stored), using: sealingKey) }
            let decoder = JSONDecoder()
            return try decoder.decode(Value.self, from: plaintext)
        } catch {
            throw PostgresStoreError(code: .unreadableRow, message: "a row of \(table) cannot be read: damaged, or sealed with another key")
        }
    }

    /// The keyed digest that stands for a lookup value, in hex: of length-prefixed parts (no
    /// two lists of parts share an input) after a domain (a key's digest never equals a
    /// partition's).
    func digest(domain: String, _ parts: [String]) -> String {
        var input = Data("courier.postgres.\(domain)\n".utf8)
        for part in parts {
            input.append(contentsOf: "\(part.utf8.count):".utf8)
            input.append(contentsOf: part.utf8)
        }
        return HMAC<SHA256>.authenticationCode(for: input, using: digestKey).map { String(format: "%02x", $0) }.joined()
    }
}
