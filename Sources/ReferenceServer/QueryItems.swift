import Foundation

/// The name-value pairs of a raw query string, in order, percent-decoded.
///
/// Hummingbird's own query map does not decode names; the debug routes need both
/// the raw string and exact, ordered pairs, so the server parses queries itself.
struct QueryItems: Sendable {
    /// The pairs in the order they appeared.
    let pairs: [(name: String, value: String)]

    /// Parses a raw query string (the part after `?`, without it).
    ///
    /// Empty segments (`a=1&&b=2`) are skipped; a segment without `=` has an empty value.
    /// Names and values are percent-decoded; `+` is kept as it is.
    /// - Parameter rawQuery: The query as received, or `nil` when there was none.
    init(rawQuery: String?) {
        guard let rawQuery, !rawQuery.isEmpty else {
            self.pairs = []
            return
        }
        self.pairs = rawQuery.split(separator: "&", omittingEmptySubsequences: true).map { segment in
            let halves = segment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.percentDecoded(halves[0])
            let value = halves.count > 1 ? Self.percentDecoded(halves[1]) : ""
            return (name: name, value: value)
        }
    }

    /// The first value for a name, if the name appears.
    func first(_ name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// The integer value of a parameter, checked against a range.
    /// - Parameters:
    ///   - name: The parameter's name.
    ///   - defaultValue: The value to use when the parameter is absent.
    ///   - range: The values accepted.
    /// - Returns: The parameter's value, or `defaultValue`.
    /// - Throws: ``APIError`` 422 `validation_failed` when the value is not an integer or is out of range.
    func integer(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>) throws -> Int {
        let value = try integer(name, default: defaultValue)
        guard range.contains(value) else {
            let expectation = range.upperBound == Int.max
                ? "at least \(range.lowerBound)"
                : "between \(range.lowerBound) and \(range.upperBound)"
            throw APIError.validationFailed("\(name) must be \(expectation), got \(value)")
        }
        return value
    }

    /// The integer value of a parameter, without a range check.
    /// - Throws: ``APIError`` 422 `validation_failed` when the value is not an integer.
    func integer(_ name: String, default defaultValue: Int) throws -> Int {
        guard let text = first(name) else { return defaultValue }
        guard let value = Int(text) else {
            throw APIError.validationFailed("\(name) must be an integer, got \"\(text)\"")
        }
        return value
    }

    private static func percentDecoded(_ text: Substring) -> String {
        let raw = String(text)
        return raw.removingPercentEncoding ?? raw
    }
}
