public import Foundation

/// One complete WebSocket message, reassembled from its frames.
///
/// ```swift
/// try await connection.send(.text("hello"))
/// for await message in connection.messages {
///     if case .text(let text) = message { print(text) }
/// }
/// ```
public enum WebSocketMessage: Sendable, Hashable {
    /// A text message: valid UTF-8.
    case text(String)
    /// A binary message.
    case binary(Data)

    /// The message's bytes: the UTF-8 of a text message, or the binary payload.
    public var data: Data {
        switch self {
        case .text(let text): return Data(text.utf8)
        case .binary(let data): return data
        }
    }

    /// The number of payload bytes.
    public var byteCount: Int {
        switch self {
        case .text(let text): return text.utf8.count
        case .binary(let data): return data.count
        }
    }

    /// A text message holding `value` encoded as JSON.
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - encoder: The encoder.
    /// - Returns: The message.
    /// - Throws: The encoder's error.
    public static func json(_ value: some Encodable, encoder: JSONEncoder = JSONEncoder()) throws -> WebSocketMessage {
        .text(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// Decodes the message's bytes as JSON.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - decoder: The decoder.
    /// - Returns: The decoded value.
    /// - Throws: The decoder's error (`DecodingError`).
    public func decode<Value: Decodable>(_ type: Value.Type, decoder: JSONDecoder = JSONDecoder()) throws -> Value {
        try decoder.decode(type, from: data)
    }
}
