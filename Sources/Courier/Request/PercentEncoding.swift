/// Percent-encoding by RFC 3986, for request targets.
enum PercentEncoding {
    private static let unreserved: Set<UInt8> = Set(
        Array(UInt8(ascii: "a")...UInt8(ascii: "z")) + Array(UInt8(ascii: "A")...UInt8(ascii: "Z"))
            + Array(UInt8(ascii: "0")...UInt8(ascii: "9")) + "-._~".utf8
    )
    private static let subDelimiters: Set<UInt8> = Set("!$&'()*+,;=".utf8)

    /// Characters that stand for themselves in a path: `pchar` and `/`.
    static let pathCharacters: Set<UInt8> = unreserved.union(subDelimiters).union(":@/".utf8)

    /// Characters that stand for themselves in a query written by hand: `pchar`, `/` and `?`.
    static let queryCharacters: Set<UInt8> = pathCharacters.union("?".utf8)

    /// Characters left as they are in a query item's name or value: everything else,
    /// `&`, `=`, `+` and space included, is escaped so the item means exactly what was given.
    private static let componentCharacters: Set<UInt8> = unreserved.union("!$'()*,;:@/?".utf8)

    /// Encodes the bytes of `text` that `allowed` does not contain, keeping valid `%XX` escapes.
    /// - Throws: ``CourierError/Code/invalidRequest`` for a `%` that does not start an escape.
    static func encode(_ text: String, allowing allowed: Set<UInt8>, what: String) throws -> String {
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

    /// Encodes a query item's name or value so that it stands for itself alone.
    static func encodeComponent(_ text: String) -> String {
        escape(text, keeping: componentCharacters)
    }

    /// Encodes one path segment: only unreserved characters stand for themselves.
    static func encodeSegment(_ text: String) -> String {
        escape(text, keeping: unreserved)
    }

    private static func escape(_ text: String, keeping kept: Set<UInt8>) -> String {
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

    private static func appendEscape(_ byte: UInt8, to output: inout [UInt8]) {
        let hex = Array("0123456789ABCDEF".utf8)
        output.append(UInt8(ascii: "%"))
        output.append(hex[Int(byte >> 4)])
        output.append(hex[Int(byte & 0x0F)])
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
