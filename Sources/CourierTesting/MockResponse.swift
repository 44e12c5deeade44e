public import Foundation
public import HTTPTypes

/// A canned response for ``MockTransport``.
public struct MockResponse: Sendable {
    /// The status.
    public var status: HTTPResponse.Status
    /// The header fields.
    public var headers: HTTPFields
    /// The body bytes.
    public var body: Data

    /// Makes a response.
    /// - Parameters:
    ///   - status: The status; 200 by default.
    ///   - headers: The header fields.
    ///   - body: The body bytes.
    public init(status: HTTPResponse.Status = .ok, headers: HTTPFields = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response whose body is a value encoded as JSON, with `Content-Type: application/json`.
    /// - Parameters:
    ///   - value: The value.
    ///   - status: The status; 200 by default.
    ///   - encoder: The encoder.
    public static func json(
        _ value: some Encodable,
        status: HTTPResponse.Status = .ok,
        encoder: JSONEncoder = JSONEncoder()
    ) throws -> MockResponse {
        MockResponse(status: status, headers: [.contentType: "application/json"], body: try encoder.encode(value))
    }

    /// A response whose body is JSON text as written.
    /// - Parameters:
    ///   - text: The JSON text.
    ///   - status: The status; 200 by default.
    public static func json(_ text: String, status: HTTPResponse.Status = .ok) -> MockResponse {
        MockResponse(status: status, headers: [.contentType: "application/json"], body: Data(text.utf8))
    }

    /// A response with a status and no body.
    /// - Parameter status: The status.
    public static func status(_ status: HTTPResponse.Status) -> MockResponse {
        MockResponse(status: status)
    }
}

/// A request as the mock transport received it, with its body read into memory.
public struct RecordedRequest: Sendable {
    /// The request head.
    public var request: HTTPRequest
    /// The body bytes, or `nil` when there was no body.
    public var body: Data?
    /// The attempt number the chain gave it.
    public var attempt: Int

    /// The body decoded as JSON.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - decoder: The decoder; a plain `JSONDecoder` by default.
    public func decodedBody<T: Decodable>(as type: T.Type, decoder: JSONDecoder = JSONDecoder()) throws -> T? {
        try body.map { try decoder.decode(T.self, from: $0) }
    }
}
