/// Percent-encoding by RFC 3986, for request targets.
///
/// Text that needs no escaping (the common case) is returned as it is, without copying.
enum PercentEncoding {
    private static let unreserved = ByteSet("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
    private static let subDelimiters = ByteSet("!$&'()*+,;=")

    /// Characters that stand for themselves in a path: `pchar` and `/`.
    static let pathCharacters = unreserved.union(subDelimiters).union(ByteSet(":@/"))

    /// Characters that stand for themselves in a query written by hand: `pchar`, `/` and `?`.
    static let queryCharacters = pathCharacters.union(ByteSet("?"))

    /// Characters left as they are in a query item's name or value: everything else,
    /// `&`, `=`, `+` and space included, is escaped so the item means exactly what was given.
    private static let componentCharacters = unreserved.union(ByteSet("!$'()*,;:@/?"))

    /// Encodes the bytes of `text` that `allowed` does not contain, keeping valid `%XX` escapes.
    /// - Throws: ``CourierError/Code/invalidRequest`` for a `%` that does not start an escape.
    static func encode(_ text: String, allowing allowed: ByteSet, what: String) throws -> String {
        if text.utf8.allSatisfy({ allowed.contains($0) }) { return text }
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else {
                    throw CourierError(
                        code: .invalidRequest,
                        message: "the \(what) has a '%' that is not a percent escape: \(text)"
                    )
                }
                output.append(contentsOf: bytes[index...(index + 2)])
                index += 3
                continue
            }
            if allowed.contains(byte) {
                output.append(byte)
            } else {
                appendEscape(byte, to: &output)
            }
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Encodes a query item's name or value.
    static func encodeComponent(_ text: String) -> String {
        escape(text, keeping: componentCharacters)
    }

    /// Encodes one path segment: everything but unreserved characters, `/` included.
    static func encodeSegment(_ text: String) -> String {
        escape(text, keeping: unreserved)
    }

    private static func escape(_ text: String, keeping kept: ByteSet) -> String {
        if text.utf8.allSatisfy({ kept.contains($0) }) { return text }
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if kept.contains(byte) {
                output.append(byte)
            } else {
                appendEscape(byte, to: &output)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    private static func appendEscape(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "%"))
        output.append(hexDigits[Int(byte >> 4)])
        output.append(hexDigits[Int(byte & 0x0F)])
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
             UInt8(ascii: "A")...UInt8(ascii: "F"):
            return true
        default:
            return false
        }
    }
}

/// A set of ASCII bytes as a 128-bit mask: membership is a shift and a test, with no
/// hashing. Bytes past ASCII are never members.
struct ByteSet: Sendable, Hashable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    /// The set of the bytes of `characters`, which must be ASCII.
    init(_ characters: String) {
        for byte in characters.utf8 {
            precondition(byte < 128, "a ByteSet holds ASCII bytes only")
            if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
        }
    }

    /// Whether the set holds `byte`.
    func contains(_ byte: UInt8) -> Bool {
        if byte < 64 { return low & (1 << UInt64(byte)) != 0 }
        if byte < 128 { return high & (1 << UInt64(byte - 64)) != 0 }
        return false
    }

    /// The bytes in either set.
    func union(_ other: ByteSet) -> ByteSet {
        var union = self
        union.low |= other.low
        union.high |= other.high
        return union
    }
}
