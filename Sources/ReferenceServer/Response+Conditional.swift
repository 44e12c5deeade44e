import Crypto
import Foundation
import Hummingbird

extension Response {
    /// A JSON response a private cache may keep: a `Cache-Control` (`private, max-age=30` unless
    /// told otherwise), a strong `ETag` (a digest of the body) and, when given, `Last-Modified`.
    ///
    /// The request's preconditions are evaluated as RFC 9110 §13.2.2 orders them: a matching
    /// `If-None-Match` answers 304; without `If-None-Match`, an `If-Modified-Since` no earlier
    /// than `lastModified` answers 304 too. A 304 carries the same validators and no body.
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - request: The request, for its preconditions.
    ///   - cacheControl: The `Cache-Control` value.
    ///   - lastModified: When the resource last changed, if known.
    ///   - headers: Further fields for the response (and its 304), such as `X-Total-Count`.
    static func cacheableJSON(
        _ value: some Encodable,
        for request: Request,
        cacheControl: String = "private, max-age=30",
        lastModified: Date? = nil,
        headers extra: HTTPFields = [:]
    ) throws -> Response {
        let data = try APIJSON.makeEncoder().encode(value)
        let digest = SHA256.hash(data: data).prefix(12).map { String(format: "%02x", $0) }.joined()
        let etag = "\"\(digest)\""
        var headers = extra
        headers[.eTag] = etag
        headers[.cacheControl] = cacheControl
        if let lastModified { headers[.lastModified] = IMFFixdate.string(from: lastModified) }
        if notModified(request, etag: etag, lastModified: lastModified) {
            return Response.bodiless(status: .notModified, headers: headers)
        }
        return Response.jsonText(data, headers: headers)
    }

    private static func notModified(_ request: Request, etag: String, lastModified: Date?) -> Bool {
        let ifNoneMatch = request.headers[values: .ifNoneMatch]
        if !ifNoneMatch.isEmpty {
            let candidates = ifNoneMatch.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
            return candidates.contains(etag) || candidates.contains("W/" + etag) || candidates.contains("*")
        }
        guard let lastModified, let since = request.headers[.ifModifiedSince].flatMap(IMFFixdate.date(from:)) else { return false }
        return lastModified.timeIntervalSince1970.rounded(.down) <= since.timeIntervalSince1970
    }
}
