import Courier
import HTTPTypes
import NIOHTTP1

/// Converts AsyncHTTPClient's response head (NIO's `HTTPHeaders` and status) into an
/// `HTTPResponse`, and finds the body's length on the way.
///
/// This runs once per response, so it avoids the two costly steps of the obvious
/// conversion: names that servers send on most responses (`Content-Type`, `Date`, …) in
/// their usual spelling map to ready-made names (`ResponseFieldName`) instead of being
/// validated and lowercased again, and `Content-Length` is read while the fields are copied
/// instead of through `HTTPFields`' subscript, which joins every value of the name into a new string.
enum ResponseHead {
    /// The response head, and its body's length (`nil` when the response has no body).
    /// - Parameters:
    ///   - headers: The response's header fields, as the engine parsed them.
    ///   - status: The response's status code.
    ///   - reasonPhrase: The response's reason phrase.
    ///   - method: The request's method: a response to `HEAD` has no body.
    /// - Throws: `CourierError.Code.invalidResponse` for a field name that is not a token.
    static func make(
        headers: HTTPHeaders,
        status code: Int,
        reasonPhrase: String,
        method: HTTPRequest.Method
    ) throws -> (HTTPResponse, HTTPBody.Length?) {
        var fields = HTTPFields()
        fields.reserveCapacity(headers.count)
        var contentLength = ContentLength.absent
        for (name, value) in headers {
            guard let fieldName = ResponseFieldName.named(name) else {
                throw CourierError(code: .invalidResponse, message: "the response has an invalid header name: \(name)")
            }
            if fieldName == .contentLength { contentLength.add(value) }
            fields.append(HTTPField(name: fieldName, value: value))
        }
        let status = HTTPResponse.Status(code: code, reasonPhrase: reasonPhrase)
        let head = HTTPResponse(status: status, headerFields: fields)
        if method == .head || code == 204 || code == 304 {
            return (head, nil)
        }
        return (head, contentLength.length)
    }

    /// What the `Content-Length` fields said: one number gives a known length; none, a
    /// malformed one, or more than one field (even repeating the same number) leave it unknown.
    private enum ContentLength {
        case absent
        case one(Int64?)
        case several

        mutating func add(_ value: String) {
            switch self {
            case .absent: self = .one(Int64(value))
            case .one, .several: self = .several
            }
        }

        var length: HTTPBody.Length {
            if case .one(let count?) = self { return .known(count) }
            return .unknown
        }
    }
}
