/// What the origin saw of one request and what it answered: one entry of `GET /state/<uuid>`.
public struct ObservedExchange: Sendable, Hashable, Codable {
    /// The client's `Req-Num`, or `nil` when it sent none (or not a number).
    public var requestNumber: Int?
    /// The request method.
    public var requestMethod: String
    /// The request's header fields, names lowercased, repeated fields joined with `", "`.
    public var requestHeaders: [String: String]
    /// The response headers the client must see, as `[name, value]` pairs, after rendering.
    public var responseHeaders: [[String]]

    enum CodingKeys: String, CodingKey {
        case requestNumber = "request_num"
        case requestMethod = "request_method"
        case requestHeaders = "request_headers"
        case responseHeaders = "response_headers"
    }

    /// Makes a record.
    /// - Parameters:
    ///   - requestNumber: The client's `Req-Num`.
    ///   - requestMethod: The method.
    ///   - requestHeaders: The request headers (lowercased names).
    ///   - responseHeaders: The `[name, value]` pairs the client must see.
    public init(requestNumber: Int?, requestMethod: String, requestHeaders: [String: String], responseHeaders: [[String]]) {
        self.requestNumber = requestNumber
        self.requestMethod = requestMethod
        self.requestHeaders = requestHeaders
        self.responseHeaders = responseHeaders
    }

    /// Reads a record; a missing or non-numeric `request_num` becomes `nil`.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when a field has the wrong shape.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        requestNumber = try? container.decodeIfPresent(Int.self, forKey: .requestNumber)
        requestMethod = try container.decode(String.self, forKey: .requestMethod)
        requestHeaders = try container.decodeIfPresent([String: HeaderText].self, forKey: .requestHeaders)?.mapValues(\.text) ?? [:]
        responseHeaders = try container.decodeIfPresent([[HeaderText]].self, forKey: .responseHeaders)?.map { $0.map(\.text) } ?? []
    }
}

/// A header value in another origin's state: text, a number, or a list of values (which is
/// joined with `", "`, as a client sees repeated fields).
struct HeaderText: Decodable {
    let text: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self.text = text
        } else if let number = try? container.decode(Int64.self) {
            self.text = String(number)
        } else if let number = try? container.decode(Double.self) {
            self.text = String(number)
        } else {
            self.text = try container.decode([HeaderText].self).map(\.text).joined(separator: ", ")
        }
    }
}
