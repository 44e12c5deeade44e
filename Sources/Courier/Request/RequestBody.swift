public import Foundation

/// What a ``Request`` sends as its body: a value to encode, bytes, or a stream.
///
/// Encodable values are encoded when the request is sent, with the request's encoder or
/// the client's. Values and bytes are replayable; a stream is replayable only if its
/// ``HTTPBody`` says so.
public struct RequestBody: Sendable {
    enum Content: Sendable {
        case encodable(any Encodable & Sendable)
        case bytes(HTTPBody)
    }

    let content: Content

    /// The `Content-Type` sent unless the request sets its own.
    public let contentType: String?

    /// A value encoded as JSON.
    /// - Parameter value: The value.
    public static func json(_ value: some Encodable & Sendable) -> RequestBody {
        RequestBody(content: .encodable(value), contentType: "application/json")
    }

    /// Bytes in memory.
    /// - Parameters:
    ///   - data: The bytes.
    ///   - contentType: Their media type.
    public static func data(_ data: Data, contentType: String? = "application/octet-stream") -> RequestBody {
        RequestBody(content: .bytes(HTTPBody(data)), contentType: contentType)
    }

    /// UTF-8 text.
    /// - Parameters:
    ///   - text: The text.
    ///   - contentType: Its media type.
    public static func text(_ text: String, contentType: String = "text/plain; charset=utf-8") -> RequestBody {
        RequestBody(content: .bytes(HTTPBody(text)), contentType: contentType)
    }

    /// A streamed body, sent as it is read.
    /// - Parameters:
    ///   - body: The body; set its length when known so it is sent with `Content-Length`.
    ///   - contentType: Its media type.
    public static func stream(_ body: HTTPBody, contentType: String? = "application/octet-stream") -> RequestBody {
        RequestBody(content: .bytes(body), contentType: contentType)
    }

    /// Whether the body can be sent more than once (by retry, redirect or replay).
    public var isReplayable: Bool {
        switch content {
        case .encodable: return true
        case .bytes(let body): return body.isReplayable
        }
    }

    /// Produces the bytes to send.
    func makeBody(encoder: JSONEncoder) throws -> HTTPBody {
        switch content {
        case .encodable(let value):
            return HTTPBody(try encoder.encode(value))
        case .bytes(let body):
            return body
        }
    }
}
