public import Foundation
public import HTTPTypes

/// RFC 9111's rules for storing, updating and invalidating responses, as pure functions.
public enum CacheRules {
    /// Header fields never stored: they describe one connection, not the resource.
    static let connectionFields: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade",
        "proxy-authenticate", "proxy-authorization", "proxy-authentication-info", "trailer",
    ]
    /// Header fields never stored because they hand out a secret: a stored `Set-Cookie` would
    /// give one user's session to whoever reads the entry (RFC 9111, 3.1 lets caches drop it).
    static let neverStoredFields: Set<String> = ["set-cookie", "set-cookie2"]

    /// Whether a private cache may store a response (RFC 9111, section 3).
    /// - Parameters:
    ///   - method: The request method.
    ///   - request: The request's header fields.
    ///   - response: The response head.
    ///   - ttlOverride: Whether the policy gives responses without freshness information a TTL.
    public static func isStorable(method: HTTPRequest.Method, request: HTTPFields, response: HTTPResponse, ttlOverride: Bool = false) -> Bool {
        guard method == .get else { return false }
        let status = response.status.code
        guard (200...599).contains(status), status != 206, status != 304 else { return false }
        if CacheControl(request[values: .cacheControl]).noStore { return false }
        let control = CacheControl(response.headerFields[values: .cacheControl])
        if control.noStore { return false }
        if CacheDecision.varyNames(response.headerFields[values: .vary]).contains("*") { return false }
        return control.has("public") || control.has("private") || control.has("max-age")
            || response.headerFields.contains(.expires)
            || Freshness.heuristicallyCacheableStatuses.contains(status)
            || (ttlOverride && (200..<300).contains(status))
    }

    /// The stored response updated by a 304 (RFC 9111, section 4.3.4): the 304's fields replace
    /// the stored ones of the same name, except `Content-Length` and connection fields; and
    /// `Content-Encoding` when the stored response has none: its body was stored decoded (the
    /// coding was "processed and removed by the recipient", section 3.2), and a 304 that names
    /// the wire's coding must not make the stored head claim one its body does not have.
    /// - Parameters:
    ///   - stored: The stored response.
    ///   - notModified: The 304's header fields.
    ///   - requestDate: When the revalidation request was sent.
    ///   - responseDate: When the 304 arrived.
    public static func updated(_ stored: CachedResponse, with notModified: HTTPFields, requestDate: Date, responseDate: Date) -> CachedResponse {
        let replaced = Set(notModified.map { $0.name.canonicalName }).subtracting(connectionFields).subtracting(neverStoredFields).subtracting(["content-length"])
            .subtracting(stored.fields.contains { $0.name.lowercased() == "content-encoding" } ? [] : ["content-encoding"])
        var fields = stored.fields.filter { !replaced.contains($0.name.lowercased()) }
        for field in notModified where replaced.contains(field.name.canonicalName) {
            fields.append(.init(name: field.name.rawName, value: field.value))
        }
        var updated = stored
        updated.fields = fields
        updated.requestDate = requestDate
        updated.responseDate = responseDate
        return updated
    }

    /// The fields worth storing from a response: all but connection fields, the fields the
    /// `Connection` header names (RFC 9111, section 3.1), and `Set-Cookie`.
    static func storedFields(_ fields: HTTPFields) -> [CachedResponse.Field] {
        let named = Set(fields[values: .connection].flatMap { $0.split(separator: ",") }.map { ASCII.lowercased(ASCII.trimmed($0)) })
        return fields.filter {
            !connectionFields.contains($0.name.canonicalName) && !named.contains($0.name.canonicalName) && !neverStoredFields.contains($0.name.canonicalName)
        }
            .map { .init(name: $0.name.rawName, value: $0.value) }
    }

    /// The URLs an unsafe request invalidates after a non-error response (RFC 9111, section 4.4):
    /// its own, and `Location` and `Content-Location` when they are on the same origin.
    /// - Parameters:
    ///   - requestURL: The request's absolute URL.
    ///   - response: The response head.
    public static func invalidatedURLs(requestURL: String, response: HTTPResponse) -> [String] {
        guard (200..<400).contains(response.status.code) else { return [] }
        var urls = [requestURL]
        guard let base = URL(string: requestURL) else { return urls }
        for name in [HTTPField.Name.location, .contentLocation] {
            guard let value = response.headerFields[name], let target = URL(string: value, relativeTo: base)?.absoluteURL,
                  target.scheme == base.scheme, target.host == base.host, target.port == base.port else { continue }
            urls.append(target.absoluteString)
        }
        return urls
    }
}
