import Foundation
import Hummingbird

extension Response {
    /// A response whose body is `value` encoded with the server's JSON conventions.
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - status: The response status.
    ///   - headers: Extra headers; `Content-Type` is set to `application/json`.
    /// - Throws: `EncodingError` if the value cannot be encoded.
    static func json(
        _ value: some Encodable,
        status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:]
    ) throws -> Response {
        let data = try APIJSON.makeEncoder().encode(value)
        return Response.jsonText(data, status: status, headers: headers)
    }

    /// A response whose body is the given bytes, labelled `application/json` as they are.
    static func jsonText(
        _ bytes: some Sequence<UInt8>,
        status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:]
    ) -> Response {
        var allHeaders = headers
        allHeaders[.contentType] = "application/json"
        return Response(status: status, headers: allHeaders, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// A response without a body and without a `Content-Length` header, as 204 and 304 require.
    static func bodiless(status: HTTPResponse.Status, headers: HTTPFields = [:]) -> Response {
        var response = Response(status: status, headers: headers)
        response.headers[.contentLength] = nil
        return response
    }
}
