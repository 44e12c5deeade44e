import Crypto
import Foundation
import _CryptoExtras

/// A password as the server keeps it: a per-user random salt and the PBKDF2-SHA256 key derived from both.
struct PasswordHash: Sendable {
    /// The random salt, unique to this hash.
    let salt: [UInt8]
    /// The derived key.
    let derivedKey: [UInt8]
}

/// Hashes and checks passwords with PBKDF2-HMAC-SHA256 and a random salt per password.
///
/// The default cost is 600,000 rounds, what OWASP's Password Storage Cheat Sheet (2023)
/// recommends for PBKDF2-HMAC-SHA256; ``ReferenceServerConfiguration/passwordHashRounds``
/// sets another. Tests and the in-process demo lower it to stay fast, since each register,
/// login and server start spends one hash.
struct PasswordHasher: Sendable {
    /// The PBKDF2 rounds per hash unless configured otherwise: 600,000 (OWASP, 2023).
    static let defaultRounds = 600_000
    /// The most rounds accepted: the key derivation takes a 32-bit count.
    static let maximumRounds = Int(clamping: UInt32.max)
    /// The bytes of salt per password.
    static let saltByteCount = 16
    /// The bytes of derived key per password.
    static let derivedKeyByteCount = 32

    /// The PBKDF2 rounds per hash, from 1 to ``maximumRounds``.
    let rounds: Int

    /// Creates a hasher.
    /// - Parameter rounds: The PBKDF2 rounds per hash; values below 1 count as 1, values above
    ///   ``maximumRounds`` as ``maximumRounds``.
    init(rounds: Int = PasswordHasher.defaultRounds) {
        self.rounds = min(max(rounds, 1), Self.maximumRounds)
    }

    /// Hashes a password with a new random salt.
    /// - Throws: When the key derivation fails, which it does only for invalid parameters.
    func hash(_ password: String) throws -> PasswordHash {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<Self.saltByteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return PasswordHash(salt: salt, derivedKey: try derive(password, salt: salt))
    }

    /// Whether `password` is the one `hash` was made from, compared in constant time.
    func verify(_ password: String, against hash: PasswordHash) -> Bool {
        guard let candidate = try? derive(password, salt: hash.salt) else { return false }
        return ConstantTimeComparison.equal(candidate, hash.derivedKey)
    }

    /// Spends the time of one verification without a stored hash, so that an unknown email
    /// takes as long to reject as a wrong password.
    func verifyAgainstNothing(_ password: String) {
        _ = try? derive(password, salt: [UInt8](repeating: 0, count: Self.saltByteCount))
    }

    private func derive(_ password: String, salt: [UInt8]) throws -> [UInt8] {
        let key = try KDF.Insecure.PBKDF2.deriveKey(
            from: Array(password.utf8),
            salt: salt,
            using: .sha256,
            outputByteCount: Self.derivedKeyByteCount,
            unsafeUncheckedRounds: rounds
        )
        return key.withUnsafeBytes { Array($0) }
    }
}
