public import Foundation
public import HTTPTypes

/// A stored response with what RFC 9111 needs to judge it later: when it was requested and
/// received, and the request header values its `Vary` names.
public struct CachedResponse: Sendable, Hashable, Codable {
    /// One header field, kept in order.
    public struct Field: Sendable, Hashable, Codable {
        /// The field's name as received.
        public var name: String
        /// Its value.
        public var value: String

        /// Makes a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The status code.
    public var status: Int
    /// The response's header fields.
    public var fields: [Field]
    /// The body.
    public var body: Data
    /// When the request that produced it was sent (RFC 9111 `request_time`).
    public var requestDate: Date
    /// When the response was received (RFC 9111 `response_time`).
    public var responseDate: Date
    /// For each header named by `Vary` (lowercased), the value the request carried, or `nil`.
    public var varyValues: [String: String?]
    /// The decoded value the memory tier keeps beside the body; not part of equality or encoding.
    var memo: DecodedValueMemo?

    private enum CodingKeys: String, CodingKey {
        case status, fields, body, requestDate, responseDate, varyValues
    }

    /// Decodes an entry, refusing one no server could have sent (a status outside 100–599,
    /// a date thousands of years away) with `DecodingError.dataCorrupted`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            status: try container.decode(Int.self, forKey: .status),
            fields: try container.decode([Field].self, forKey: .fields),
            body: try container.decode(Data.self, forKey: .body),
            requestDate: try container.decode(Date.self, forKey: .requestDate),
            responseDate: try container.decode(Date.self, forKey: .responseDate),
            varyValues: try container.decode([String: String?].self, forKey: .varyValues)
        )
        guard isWellFormed else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a stored response with an impossible status or date"))
        }
    }

    /// Makes an entry.
    public init(status: Int, fields: [Field], body: Data, requestDate: Date, responseDate: Date, varyValues: [String: String?] = [:]) {
        self.status = status
        self.fields = fields
        self.body = body
        self.requestDate = requestDate
        self.responseDate = responseDate
        self.varyValues = varyValues
    }

    /// Makes an entry from a response head.
    public init(response: HTTPResponse, body: Data, requestDate: Date, responseDate: Date, varyValues: [String: String?] = [:]) {
        self.init(
            status: response.status.code,
            fields: response.headerFields.map { Field(name: $0.name.rawName, value: $0.value) },
            body: body,
            requestDate: requestDate,
            responseDate: responseDate,
            varyValues: varyValues
        )
    }

    /// The header fields as `HTTPFields` (fields with invalid names are left out).
    public var headerFields: HTTPFields {
        var result = HTTPFields()
        for field in fields {
            if let name = HTTPField.Name(field.name) { result.append(HTTPField(name: name, value: field.value)) }
        }
        return result
    }

    /// Whether the entry could have come from a server: a status from 100 to 599 and dates
    /// within ``plausibleDates``. The cache treats any other entry (a damaged or tampered
    /// store) as a miss, so that nothing downstream traps on it.
    package var isWellFormed: Bool {
        (100...599).contains(status) && Self.plausibleDates.contains(requestDate) && Self.plausibleDates.contains(responseDate)
    }

    /// The dates a stored entry may carry: about 3,000 years either side of 2001, far
    /// beyond any real response and well within what `Int` seconds arithmetic can hold.
    package static let plausibleDates = Date(timeIntervalSinceReferenceDate: -1e11)...Date(timeIntervalSinceReferenceDate: 1e11)

    /// The response head.
    public var response: HTTPResponse {
        HTTPResponse(status: .init(code: status), headerFields: headerFields)
    }

    /// The values of every field with this name (case-insensitive), in order.
    public func values(_ name: String) -> [String] {
        fields.compactMap { ASCII.equalsIgnoringCase($0.name, name) ? $0.value : nil }
    }

    /// The size counted against a cache's byte budget: body and header bytes.
    public var cost: Int {
        body.count + fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
    }
}
