import Foundation

/// The part of a stored body a `Range` request asks for (RFC 9110, section 14), so the cache
/// can answer a range of a complete stored response with a 206 itself.
///
/// Only a single `bytes` range is served from the cache; several ranges, other units, a
/// malformed or unsatisfiable range, or an `If-Range` that does not match the stored
/// validator make the cache answer with the whole representation (200), which RFC 9110 allows.
enum ByteRange {
    /// The byte offsets a `Range` value selects from a body of `length` bytes, or `nil` when
    /// the value is not a single satisfiable byte range.
    /// - Parameters:
    ///   - value: The `Range` field value, such as `bytes=0-99`, `bytes=100-` or `bytes=-50`.
    ///   - length: The body's length.
    static func selection(_ value: String, length: Int) -> Range<Int>? {
        let trimmed = ASCII.trimmed(value)
        guard trimmed.count > 6, ASCII.lowercased(trimmed.prefix(6)) == "bytes=" else { return nil }
        let spec = ASCII.trimmed(trimmed.dropFirst(6))
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let first = ASCII.trimmed(spec[..<dash])
        let last = ASCII.trimmed(spec[spec.index(after: dash)...])
        guard length > 0 else { return nil }
        if first.isEmpty {
            // A suffix: the last N bytes.
            guard let count = digits(last), count > 0 else { return nil }
            return max(0, length - count)..<length
        }
        guard let start = digits(first), start < length else { return nil }
        if last.isEmpty { return start..<length }
        guard let end = digits(last), end >= start else { return nil }
        return start..<(min(end, length - 1) + 1)
    }

    /// Whether an `If-Range` value lets a stored response's range be served: it must be the
    /// stored strong `ETag`, or exactly the stored `Last-Modified` date (RFC 9110, 13.1.5).
    static func ifRangeHolds(_ value: String, etag: String?, lastModified: String?) -> Bool {
        let candidate = String(ASCII.trimmed(value))
        if candidate.hasPrefix("\"") || candidate.hasPrefix("W/") {
            guard let etag, !candidate.hasPrefix("W/"), !etag.hasPrefix("W/") else { return false }
            return candidate == String(ASCII.trimmed(etag))
        }
        guard let date = HTTPDate.parse(candidate), let lastModified, let stored = HTTPDate.parse(lastModified) else { return false }
        return date == stored
    }

    private static func digits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 18, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int(text)
    }
}
