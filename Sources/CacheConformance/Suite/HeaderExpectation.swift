/// One entry of `expected_response_headers`.
public enum ResponseHeaderExpectation: Sendable, Hashable, Decodable {
    /// `"name"`: the header is present.
    case present(String)
    /// `[name, value]`: the header has this value (numbers in date headers are rendered
    /// against the response's `Server-Now`).
    case equals(String, SuiteFieldValue)
    /// `[name, "=", other]`: the header equals header `other` of the same response.
    case sameAs(String, other: String)
    /// `[name, ">", n]`: the header is a number greater than `n`.
    case greaterThan(String, Int)

    /// Reads a string, a pair or a triple.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for an unknown form or operator.
    public init(from decoder: any Decoder) throws {
        if let name = try? decoder.singleValueContainer().decode(String.self) {
            self = .present(name)
            return
        }
        var container = try decoder.unkeyedContainer()
        let name = try container.decode(String.self)
        let second = try container.decode(SuiteFieldValue.self)
        guard !container.isAtEnd else {
            self = .equals(name, second)
            return
        }
        switch second {
        case .text("="):
            self = .sameAs(name, other: try container.decode(SuiteFieldValue.self).literal)
        case .text(">"):
            self = .greaterThan(name, try container.decode(Int.self))
        default:
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown header operator \(second.literal)")
        }
    }
}

/// One entry of `expected_response_headers_missing`.
public enum MissingResponseHeaderExpectation: Sendable, Hashable, Decodable {
    /// `"name"`: the header is absent.
    case absent(String)
    /// `[name, value]`: the header, if present, does not contain `value`.
    case lacksValue(String, String)

    /// Reads a string or a pair.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for another form.
    public init(from decoder: any Decoder) throws {
        if let name = try? decoder.singleValueContainer().decode(String.self) {
            self = .absent(name)
            return
        }
        var container = try decoder.unkeyedContainer()
        self = .lacksValue(try container.decode(String.self), try container.decode(SuiteFieldValue.self).literal)
    }
}

/// One entry of `expected_request_headers` or `expected_request_headers_missing`, checked
/// on what the origin received.
public enum RequestHeaderExpectation: Sendable, Hashable, Decodable {
    /// `"name"`: the header was (or, for the missing list, was not) sent.
    case present(String)
    /// `[name, value]`: the header had (or, for the missing list, did not have) this value.
    case equals(String, String)

    /// Reads a string or a pair.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` for another form.
    public init(from decoder: any Decoder) throws {
        if let name = try? decoder.singleValueContainer().decode(String.self) {
            self = .present(name)
            return
        }
        var container = try decoder.unkeyedContainer()
        self = .equals(try container.decode(String.self), try container.decode(SuiteFieldValue.self).literal)
    }

    /// The header's name.
    public var name: String {
        switch self {
        case .present(let name), .equals(let name, _): return name
        }
    }
}
