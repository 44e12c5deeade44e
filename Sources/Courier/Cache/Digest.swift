/// A stable, non-secret name for a secret value (FNV-1a, 64 bits): used to keep credentials
/// apart (cache partitions, `Vary` on credential fields) without storing them.
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
