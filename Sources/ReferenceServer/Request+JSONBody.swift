import Foundation
import Hummingbird

extension Request {
    /// The largest JSON body the API routes accept.
    static let maximumJSONBodySize = 1 << 20

    /// Collects the body and decodes it as JSON.
    /// - Parameter type: The type to decode.
    /// - Returns: The decoded value.
    /// - Throws: ``APIError`` 400 when the body is empty or not valid JSON of that shape,
    ///   413 when it is larger than ``maximumJSONBodySize``.
    func decodeJSONBody<Value: Decodable>(as type: Value.Type) async throws -> Value {
        guard let value = try await decodeOptionalJSONBody(as: type) else {
            throw APIError.badRequest("request body is empty; expected JSON")
        }
        return value
    }

    /// Collects the body and decodes it as JSON; `nil` when there is none.
    /// - Parameter type: The type to decode.
    /// - Returns: The decoded value, or `nil` for an empty body.
    /// - Throws: ``APIError`` 400 when the body is not valid JSON of that shape, 413 when it
    ///   is larger than ``maximumJSONBodySize``.
    func decodeOptionalJSONBody<Value: Decodable>(as type: Value.Type) async throws -> Value? {
        let buffer: ByteBuffer
        do {
            buffer = try await body.collect(upTo: Self.maximumJSONBodySize)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw APIError.payloadTooLarge("request body exceeds \(Self.maximumJSONBodySize) bytes")
        }
        let data = Data(buffer.readableBytesView)
        guard !data.isEmpty else { return nil }
        do {
            return try APIJSON.makeDecoder().decode(Value.self, from: data)
        } catch let error as DecodingError {
            throw APIError.badRequest("malformed JSON body: \(DecodingErrorSummary(error))")
        } catch {
            throw APIError.badRequest("malformed JSON body")
        }
    }
}

/// A one-line description of a `DecodingError` with its coding path.
private struct DecodingErrorSummary: CustomStringConvertible {
    let error: DecodingError

    init(_ error: DecodingError) {
        self.error = error
    }

    var description: String {
        switch error {
        case .keyNotFound(let key, let context):
            return "missing key '\(Self.path(context.codingPath + [key]))'"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let path = Self.path(context.codingPath)
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        @unknown default:
            return "undecodable"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}
