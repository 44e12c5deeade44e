import Foundation

/// How the server answers a `Range` request for a representation of a known length
/// (RFC 9110, section 14): one byte range is served as a 206; anything it does not serve
/// (no `Range`, several ranges, another unit, a malformed value, an `If-Range` that does not
/// match) gets the whole representation; a range that starts past the end gets a 416.
enum RangeSelection: Sendable, Hashable {
    /// Answer 200 with every byte.
    case whole
    /// Answer 206 with these bytes.
    case partial(Range<Int>)
    /// Answer 416 with `Content-Range: bytes */length`.
    case unsatisfiable

    /// Decides from the request's `Range` and `If-Range` values.
    /// - Parameters:
    ///   - range: The `Range` value, if any.
    ///   - ifRange: The `If-Range` value, if any.
    ///   - length: The representation's length.
    ///   - etag: Its strong ETag.
    ///   - lastModified: Its Last-Modified date, as sent.
    static func select(range: String?, ifRange: String?, length: Int, etag: String, lastModified: String) -> RangeSelection {
        guard let range else { return .whole }
        if let ifRange {
            let validator = ifRange.trimmingCharacters(in: .whitespaces)
            let matches = validator.hasPrefix("\"") ? validator == etag : validator == lastModified
            guard matches else { return .whole }
        }
        let value = range.trimmingCharacters(in: .whitespaces)
        guard value.lowercased().hasPrefix("bytes=") else { return .whole }
        let spec = value.dropFirst(6).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        if first.isEmpty {
            guard let suffix = number(last) else { return .whole }
            guard suffix > 0, length > 0 else { return .unsatisfiable }
            return .partial(max(0, length - suffix)..<length)
        }
        guard let start = number(first) else { return .whole }
        let end: Int
        if last.isEmpty {
            end = length - 1
        } else {
            guard let requestedEnd = number(last), requestedEnd >= start else { return .whole }
            end = min(requestedEnd, length - 1)
        }
        guard start < length else { return .unsatisfiable }
        return .partial(start..<(end + 1))
    }

    private static func number(_ text: String) -> Int? {
        guard !text.isEmpty, text.count <= 18, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int(text)
    }
}
