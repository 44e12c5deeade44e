import Crypto
import Foundation
import Hummingbird

extension Response {
    /// A JSON response a private cache may keep: `Cache-Control: private, max-age=<maxAge>`
    /// and a strong `ETag` (a digest of the body). A request whose `If-None-Match` names that
    /// ETag gets a 304 with no body.
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - request: The request, for its `If-None-Match`.
    ///   - maxAge: How long the response stays fresh, in seconds.
    static func cacheableJSON(_ value: some Encodable, for request: Request, maxAge: Int = 30) throws -> Response {
        let data = try APIJSON.makeEncoder().encode(value)
        let digest = SHA256.hash(data: data).prefix(12).map { String(format: "%02x", $0) }.joined()
        let etag = "\"\(digest)\""
        let headers: HTTPFields = [.eTag: etag, .cacheControl: "private, max-age=\(maxAge)"]
        let candidates = request.headers[values: .ifNoneMatch].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        if candidates.contains(etag) || candidates.contains("W/" + etag) || candidates.contains("*") {
            return Response.bodiless(status: .notModified, headers: headers)
        }
        return Response.jsonText(data, headers: headers)
    }
}
