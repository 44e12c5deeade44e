/// A header value as the suite writes it: text, or a number of seconds.
///
/// In `Date`, `Expires`, `Last-Modified`, `If-Modified-Since` and `If-Unmodified-Since` a
/// number is an offset from the origin's clock, rendered as an HTTP date when the message is
/// sent (see ``SuiteDates``).
public enum SuiteFieldValue: Sendable, Hashable, Decodable {
    /// A literal value.
    case text(String)
    /// Seconds: a date offset in the date headers, plain digits elsewhere.
    case seconds(Int)

    /// Reads a string or an integer.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for any other JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            self = .seconds(number)
        } else {
            self = .text(try container.decode(String.self))
        }
    }

    /// The value as written, numbers as digits (no date rendering).
    public var literal: String {
        switch self {
        case .text(let text): return text
        case .seconds(let seconds): return String(seconds)
        }
    }
}

/// One `[name, value]` or `[name, value, mustBeSeen]` pair of `request_headers` or
/// `response_headers`.
public struct SuiteHeader: Sendable, Hashable, Decodable {
    /// The field name as written.
    public var name: String
    /// The value as written.
    public var value: SuiteFieldValue
    /// `false` when the third element says the client need not see this response header;
    /// such headers are left out of what the origin records as sent.
    public var mustBeSeen: Bool

    /// Makes a pair.
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The value.
    ///   - mustBeSeen: Whether the client must see it (response headers only).
    public init(name: String, value: SuiteFieldValue, mustBeSeen: Bool = true) {
        self.name = name
        self.value = value
        self.mustBeSeen = mustBeSeen
    }

    /// Reads the two- or three-element array.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when the array is malformed.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        name = try container.decode(String.self)
        value = try container.decode(SuiteFieldValue.self)
        mustBeSeen = try container.decodeIfPresent(Bool.self) ?? true
    }

    /// The lowercased name, for case-insensitive comparisons.
    public var lowercasedName: String { name.lowercased() }
}

extension [SuiteHeader] {
    /// The value of the last pair with this name (case-insensitive), as written.
    /// - Parameter name: The field name.
    func lastValue(named name: String) -> SuiteFieldValue? {
        let lowered = name.lowercased()
        return last { $0.lowercasedName == lowered }?.value
    }
}
