/// A `Content-Range` field value of the `bytes` unit (RFC 9110, section 14.4): the part of
/// the representation a 206 carries, or, on a 416, only the representation's length.
///
/// `bytes 100-199/1000`, `bytes 100-199/*`, `bytes */1000`.
struct ContentRange: Sendable, Hashable {
    /// The offsets of the bytes carried, `first...last`; `nil` for `bytes */length`.
    var range: ClosedRange<Int64>?
    /// The representation's whole length; `nil` for `/*`.
    var completeLength: Int64?

    /// Parses a field value; `nil` when it is not a well-formed `bytes` range.
    init?(_ value: String) {
        let text = ASCII.trimmed(value)
        guard text.count > 6, ASCII.lowercased(text.prefix(6)) == "bytes " else { return nil }
        let spec = ASCII.trimmed(text.dropFirst(6))
        guard let slash = spec.firstIndex(of: "/") else { return nil }
        let rangePart = spec[..<slash]
        let lengthPart = spec[spec.index(after: slash)...]
        if lengthPart == "*" {
            completeLength = nil
        } else {
            guard let length = Self.number(lengthPart) else { return nil }
            completeLength = length
        }
        if rangePart == "*" {
            guard completeLength != nil else { return nil }
            range = nil
            return
        }
        guard let dash = rangePart.firstIndex(of: "-"),
              let first = Self.number(rangePart[..<dash]),
              let last = Self.number(rangePart[rangePart.index(after: dash)...]),
              first <= last
        else { return nil }
        if let completeLength, last >= completeLength { return nil }
        range = first...last
    }

    private static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.count <= 18, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int64(text)
    }
}
