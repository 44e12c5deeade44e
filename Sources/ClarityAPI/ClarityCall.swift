import ClarityOpenAPI
import Courier
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Runs one operation of the generated client and gives every failure as a `CourierError`:
/// the transport's own (a status the client does not accept, a failed connection, a queued
/// write) as it was thrown, and the generated client's (an answer that breaks the document) as
/// ``CourierError/Code/decodingFailed`` naming the operation and the field, or, when the body
/// came in a coding the transport did not undo, ``CourierError/Code/contentDecodingFailed``
/// naming the coding. Nothing half-decoded reaches the caller.
enum ClarityCall {
    static func run<Value>(_ operation: String, _ body: () async throws -> Value) async throws -> Value {
        do {
            return try await body()
        } catch let error as CourierError {
            throw error
        } catch let error as ClientError {
            throw courierError(error, operation: operation)
        } catch is CancellationError {
            throw CourierError(code: .cancelled, message: "\(operation) was cancelled")
        } catch {
            throw CourierError(code: .invalidResponse, message: "\(operation): the answer is not one the document gives: \(error)", underlying: error)
        }
    }

    static func courierError(_ error: ClientError, operation: String) -> CourierError {
        if let courier = error.underlyingError as? CourierError { return courier }
        if let coding = error.response?.headerFields[.contentEncoding], !coding.isEmpty, coding.lowercased() != "identity" {
            var mapped = CourierError(
                code: .contentDecodingFailed,
                message: "\(operation): the answer came in Content-Encoding \(coding), which this transport does not decode",
                underlying: error.underlyingError
            )
            mapped.status = error.response?.status
            return mapped
        }
        if let decoding = error.underlyingError as? DecodingError {
            var mapped = CourierError.decodingFailed(decoding, in: operation)
            mapped.status = error.response?.status
            return mapped
        }
        var mapped = CourierError(code: .invalidResponse, message: "\(operation): \(error.causeDescription)", underlying: error.underlyingError)
        mapped.status = error.response?.status
        return mapped
    }
}
