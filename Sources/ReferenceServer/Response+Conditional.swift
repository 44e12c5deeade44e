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
        let etag = ConditionalRequest.strongETag(of: data)
        var headers = extra
        headers[.eTag] = etag
        headers[.cacheControl] = cacheControl
        if let lastModified { headers[.lastModified] = IMFFixdate.string(from: lastModified) }
        if ConditionalRequest.isNotModified(request.headers, etag: etag, lastModified: lastModified) {
            return Response.bodiless(status: .notModified, headers: headers)
        }
        return Response.jsonText(data, headers: headers)
    }
}

/// The preconditions of a conditional GET, evaluated as RFC 9110 §13.2.2 orders them.
enum ConditionalRequest {
    /// A strong `ETag` made from a body: the first 12 bytes of its SHA-256, quoted.
    static func strongETag(of body: some DataProtocol) -> String {
        "\"" + SHA256.hash(data: body).prefix(12).map { String(format: "%02x", $0) }.joined() + "\""
    }

    /// Whether a request's preconditions say the client's copy is current: a matching
    /// `If-None-Match` (strong or weak, or `*`); without `If-None-Match`, an `If-Modified-Since`
    /// no earlier than `lastModified`.
    static func isNotModified(_ fields: HTTPFields, etag: String, lastModified: Date?) -> Bool {
        let ifNoneMatch = fields[values: .ifNoneMatch]
        if !ifNoneMatch.isEmpty {
            let candidates = ifNoneMatch.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
            return candidates.contains(etag) || candidates.contains("W/" + etag) || candidates.contains("*")
        }
        guard let lastModified, let since = fields[.ifModifiedSince].flatMap(IMFFixdate.date(from:)) else { return false }
        return lastModified.timeIntervalSince1970.rounded(.down) <= since.timeIntervalSince1970
    }
}
