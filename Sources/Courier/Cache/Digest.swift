/// A stable short name for a value that is not secret (FNV-1a, 64 bits), such as a URL.
/// Credentials are named by ``CredentialDigest`` instead, which is keyed.
enum Digest {
    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
