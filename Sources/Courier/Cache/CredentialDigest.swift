/// Keyed digests of credentials (HMAC-SHA256 with a per-store secret), for keeping users
/// apart in the cache (partitions, `Vary` on `Authorization` or `Cookie`) without storing
/// anything from which a credential could be recovered or confirmed: without the secret, a
/// digest says nothing about the token, password or cookie behind it.
///
/// Courier's core has no cryptography dependency, so SHA-256 is implemented here
/// (FIPS 180-4); it is checked against the published test vectors.
public struct CredentialDigest: Sendable {
    /// The HMAC state after the inner and outer key blocks, computed once per key.
    private let innerState: SHA256.State
    private let outerState: SHA256.State

    /// Makes a digest with a secret key.
    /// - Parameter key: The secret; 32 random bytes is right. Keys longer than 64 bytes are
    ///   hashed first, as HMAC specifies.
    public init(key: [UInt8]) {
        var block = key.count > 64 ? SHA256.hash(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        var inner = SHA256.State()
        inner.absorb(block: block.map { $0 ^ 0x36 })
        var outer = SHA256.State()
        outer.absorb(block: block.map { $0 ^ 0x5c })
        innerState = inner
        outerState = outer
    }

    /// A digest with a new random key, for a store that lives only as long as the process.
    public static func random() -> CredentialDigest {
        var generator = SystemRandomNumberGenerator()
        return CredentialDigest(key: (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// The HMAC-SHA256 of a message.
    public func mac(_ message: [UInt8]) -> [UInt8] {
        var inner = innerState
        let innerHash = inner.finish(appending: message, precedingBytes: 64)
        var outer = outerState
        return outer.finish(appending: innerHash, precedingBytes: 64)
    }

    /// The digest of a credential as a name: the first 128 bits of its HMAC, in hex.
    public func callAsFunction(_ credential: String) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(32)
        for byte in mac(Array(credential.utf8)).prefix(16) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// SHA-256 (FIPS 180-4), small and allocation-light; only what ``CredentialDigest`` needs.
enum SHA256 {
    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// The hash of a message.
    static func hash(_ message: [UInt8]) -> [UInt8] {
        var state = State()
        return state.finish(appending: message, precedingBytes: 0)
    }

    /// The running state: eight words, fed 64-byte blocks.
    struct State: Sendable {
        private var h: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
            (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)

        /// Feeds one 64-byte block.
        mutating func absorb(block: [UInt8]) {
            block.withUnsafeBufferPointer { absorb($0, at: 0) }
        }

        /// Pads and feeds the rest of a message, returning the digest.
        /// - Parameters:
        ///   - message: The bytes not yet absorbed.
        ///   - precedingBytes: How many bytes earlier ``absorb(block:)`` calls fed.
        mutating func finish(appending message: [UInt8], precedingBytes: Int) -> [UInt8] {
            var padded = message
            padded.append(0x80)
            while padded.count % 64 != 56 { padded.append(0) }
            let bits = UInt64(precedingBytes + message.count) &* 8
            for shift in stride(from: 56, through: 0, by: -8) { padded.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
            padded.withUnsafeBufferPointer { bytes in
                for offset in stride(from: 0, to: bytes.count, by: 64) { absorb(bytes, at: offset) }
            }
            var digest: [UInt8] = []
            digest.reserveCapacity(32)
            for word in [h.0, h.1, h.2, h.3, h.4, h.5, h.6, h.7] {
                digest += [UInt8(word >> 24), UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word)]
            }
            return digest
        }

        private mutating func absorb(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) {
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                for i in 0..<16 {
                    let j = offset + i * 4
                    w[i] = UInt32(bytes[j]) << 24 | UInt32(bytes[j + 1]) << 16 | UInt32(bytes[j + 2]) << 8 | UInt32(bytes[j + 3])
                }
                for i in 16..<64 {
                    let s0 = w[i - 15].rotatedRight(7) ^ w[i - 15].rotatedRight(18) ^ (w[i - 15] >> 3)
                    let s1 = w[i - 2].rotatedRight(17) ^ w[i - 2].rotatedRight(19) ^ (w[i - 2] >> 10)
                    w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
                }
                var (a, b, c, d, e, f, g, hh) = h
                for i in 0..<64 {
                    let s1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
                    let choice = (e & f) ^ (~e & g)
                    let t1 = hh &+ s1 &+ choice &+ SHA256.k[i] &+ w[i]
                    let s0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
                    let majority = (a & b) ^ (a & c) ^ (b & c)
                    let t2 = s0 &+ majority
                    hh = g; g = f; f = e; e = d &+ t1
                    d = c; c = b; b = a; a = t1 &+ t2
                }
                h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e, h.5 &+ f, h.6 &+ g, h.7 &+ hh)
            }
        }
    }
}

extension UInt32 {
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
        (self >> count) | (self << (32 - count))
    }
}
