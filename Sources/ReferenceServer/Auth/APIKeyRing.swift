import Crypto
import Foundation

/// Personal API keys, as intervals.icu gives each athlete one: the key's SHA-256 digest to the
/// user it belongs to, so that neither a lookup's timing nor a dump of the ring gives a key away.
///
/// A plain value; ``AuthService`` provides isolation.
struct APIKeyRing: Sendable {
    private var owners: [Data: String] = [:]

    /// Makes `key` sign as `userId`, replacing whatever it signed as before.
    mutating func add(_ key: String, for userId: String) {
        owners[Self.digest(key)] = userId
    }

    /// Makes a new random key for a user: 32 hexadecimal digits, as intervals.icu's look.
    mutating func issue(for userId: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let key = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        add(key, for: userId)
        return key
    }

    /// The user a key belongs to, if any.
    func owner(of key: String) -> String? {
        owners[Self.digest(key)]
    }

    private static func digest(_ key: String) -> Data {
        Data(SHA256.hash(data: Data(key.utf8)))
    }
}
