/// Small ASCII helpers for header parsing on hot paths: no Foundation bridging, no allocation
/// beyond the result.
enum ASCII {
    /// `text` without leading and trailing spaces and tabs.
    static func trimmed<S: StringProtocol>(_ text: S) -> Substring {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isBlank($0) }), let last = text.lastIndex(where: { !isBlank($0) }) else {
            return Substring()
        }
        return Substring(text[first...last])
    }

    /// Whether two strings are equal when ASCII letters are compared without regard to case.
    static func equalsIgnoringCase(_ left: String, _ right: String) -> Bool {
        guard left.utf8.count == right.utf8.count else { return false }
        for (a, b) in zip(left.utf8, right.utf8) where a != b {
            guard lower(a) == lower(b) else { return false }
        }
        return true
    }

    /// `text` with ASCII letters in lower case; `text` itself, with no allocation, when it has
    /// no upper-case letter (the usual case for header tokens).
    static func lowercased<S: StringProtocol>(_ text: S) -> String {
        guard text.utf8.contains(where: { $0 >= 65 && $0 <= 90 }) else { return String(text) }
        return String(decoding: text.utf8.map(lower), as: UTF8.self)
    }

    /// Whether `text` contains `part`, byte for byte (no Foundation bridging).
    static func contains(_ text: String, _ part: String) -> Bool {
        let haystack = Array(text.utf8)
        let needle = Array(part.utf8)
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    /// An ASCII letter in lower case; any other byte unchanged.
    static func lower(_ byte: UInt8) -> UInt8 {
        byte >= 65 && byte <= 90 ? byte + 32 : byte
    }
}
