public import Foundation
public import HTTPTypes

/// What the cache does with a request, decided before the network is asked.
public enum CacheLookup: Sendable, Hashable {
    /// Serve this stored response without asking the network.
    case serve(CachedResponse, CacheStatus)
    /// Ask the network with these conditional fields; a 304 means the stored response can be
    /// served (updated); `stale` may be served if the network fails and the rules allow it.
    case revalidate(CachedResponse, conditions: HTTPFields)
    /// Serve this stored (stale) response now, and refresh it in the background with these
    /// conditional fields (`nil`: an unconditional request).
    case serveAndRefresh(CachedResponse, conditions: HTTPFields?)
    /// Ask the network; `fallback`, when present, may be served if the network fails.
    case network(fallback: CachedResponse?)
    /// Answer 504 without asking the network (`only-if-cached` or ``CachePolicy/cacheOnly``
    /// with nothing usable stored).
    case gatewayTimeout
}

/// Where a response came from, reported in ``ResponseMetrics/cacheStatus``.
public enum CacheStatus: Sendable, Hashable {
    /// The network answered; the cache was not used (or not configured).
    case network
    /// A stored response, fresh by the rules or by the policy.
    case hit
    /// A stored response, confirmed by the server with a 304.
    case revalidated
    /// A stored response past its freshness, served because the policy or a directive allows it
    /// (`max-stale`, `stale-while-revalidate`, `stale-if-error`, ``CachePolicy/cacheFirst``, …).
    case stale
}

/// The cache's pure decisions: which stored variant matches a request, whether it can be
/// served, and how to revalidate it.
public enum CacheDecision {
    /// Decides what to do with a request, given the stored variants for its key.
    /// - Parameters:
    ///   - request: The request's header fields.
    ///   - variants: The stored variants, most recent first.
    ///   - policy: The request's cache policy.
    ///   - now: The current date.
    ///   - heuristicFraction: The heuristic freshness fraction.
    ///   - digest: The cache's ``HTTPCache/credentialDigest``, which credential fields in `Vary`
    ///     are compared by.
    /// - Returns: What to do.
    public static func lookup(
        request: HTTPFields,
        variants: [CachedResponse],
        policy: CachePolicy,
        now: Date,
        heuristicFraction: Double = 0.1,
        digest: CredentialDigest
    ) -> CacheLookup {
        let requestControl = requestCacheControl(request)
        let candidate = variants.first { matchesVary($0, request: request, digest: digest) }
        if policy == .bypass || requestControl.noStore {
            return requestControl.onlyIfCached ? .gatewayTimeout : .network(fallback: nil)
        }
        guard let stored = candidate else {
            return requestControl.onlyIfCached || policy == .cacheOnly ? .gatewayTimeout : .network(fallback: nil)
        }
        switch policy {
        case .cacheOnly, .cacheFirst:
            let freshness = Freshness(of: stored, now: now, heuristicFraction: heuristicFraction)
            return .serve(stored, freshness.isFresh ? .hit : .stale)
        case .staleWhileRevalidate:
            let freshness = Freshness(of: stored, now: now, heuristicFraction: heuristicFraction)
            return freshness.isFresh ? .serve(stored, .hit) : .serveAndRefresh(stored, conditions: conditions(for: stored))
        case .networkFirst:
            return .network(fallback: stored)
        case .noCache:
            return conditions(for: stored).map { .revalidate(stored, conditions: $0) } ?? .network(fallback: nil)
        case .http, .ttl, .bypass:
            break
        }
        let ttl: Duration? = if case .ttl(let value) = policy { value } else { nil }
        let responseControl = CacheControl(stored.values("Cache-Control"))
        let freshness = Freshness(of: stored, control: responseControl, now: now, heuristicFraction: heuristicFraction, ttlOverride: ttl)

        if servable(freshness, request: requestControl, response: responseControl, pragmaNoCache: pragmaNoCache(request)) {
            return .serve(stored, freshness.isFresh ? .hit : .stale)
        }
        if requestControl.onlyIfCached { return .gatewayTimeout }
        if let window = responseControl.validSeconds("stale-while-revalidate"), freshness.staleness <= TimeInterval(window),
           !requestControl.noCache, !responseControl.noCache, !responseControl.mustRevalidate {
            return .serveAndRefresh(stored, conditions: conditions(for: stored))
        }
        if let conditions = conditions(for: stored) {
            return .revalidate(stored, conditions: conditions)
        }
        return .network(fallback: stored)
    }

    /// Whether a stored response may be served without contacting the server.
    static func servable(_ freshness: Freshness, request: CacheControl, response: CacheControl, pragmaNoCache: Bool) -> Bool {
        if request.noCache || pragmaNoCache || response.noCache { return false }
        if let maxAge = request.seconds("max-age") {
            guard case .seconds(let limit) = maxAge, freshness.age <= TimeInterval(limit) else { return false }
        }
        if let minFresh = request.validSeconds("min-fresh"), freshness.lifetime - freshness.age < TimeInterval(minFresh) {
            return false
        }
        if freshness.isFresh { return true }
        if response.mustRevalidate { return false }
        if request.has("max-stale") {
            guard let limit = request.validSeconds("max-stale") else {
                return request.argument("max-stale") == nil
            }
            return freshness.staleness <= TimeInterval(limit)
        }
        return false
    }

    /// The conditional fields that revalidate a stored response, or `nil` without a validator.
    public static func conditions(for stored: CachedResponse) -> HTTPFields? {
        var fields = HTTPFields()
        if let etag = stored.values("ETag").first { fields[.ifNoneMatch] = etag }
        if let lastModified = stored.values("Last-Modified").first, HTTPDate.parse(lastModified) != nil {
            fields[.ifModifiedSince] = lastModified
        }
        return fields.isEmpty ? nil : fields
    }

    /// Whether a stale stored response may stand in for a failed network answer
    /// (`stale-if-error` in the request or the stored response, RFC 5861).
    /// - Parameters:
    ///   - stored: The stored response.
    ///   - request: The request's header fields.
    ///   - now: The current date.
    public static func mayServeOnError(_ stored: CachedResponse, request: HTTPFields, now: Date) -> Bool {
        let freshness = Freshness(of: stored, now: now)
        let responseControl = CacheControl(stored.values("Cache-Control"))
        if freshness.isFresh { return true }
        if responseControl.mustRevalidate || responseControl.noCache { return false }
        let window = requestCacheControl(request).validSeconds("stale-if-error") ?? responseControl.validSeconds("stale-if-error")
        guard let window else { return false }
        return freshness.staleness <= TimeInterval(window)
    }

    /// Whether a stale stored response may stand in when the server cannot be reached at all
    /// (RFC 9111, section 4.2.4: a disconnected cache may serve stale), unless the response
    /// forbids it (`must-revalidate`, `no-cache`) or the request asks for a fresh answer
    /// (`no-cache`, `max-age=0`).
    /// - Parameters:
    ///   - stored: The stored response.
    ///   - request: The request's header fields.
    public static func mayServeWhenDisconnected(_ stored: CachedResponse, request: HTTPFields) -> Bool {
        let responseControl = CacheControl(stored.values("Cache-Control"))
        let requestControl = requestCacheControl(request)
        if responseControl.mustRevalidate || responseControl.noCache || requestControl.noCache { return false }
        if requestControl.seconds("max-age") != nil && requestControl.validSeconds("max-age") == 0 { return false }
        return true
    }

    /// Whether a stored variant was selected by request header values equal to this request's.
    /// - Parameters:
    ///   - stored: The stored variant.
    ///   - request: The request's header fields.
    ///   - digest: The cache's ``HTTPCache/credentialDigest``, which credential fields are compared by.
    public static func matchesVary(_ stored: CachedResponse, request: HTTPFields, digest: CredentialDigest) -> Bool {
        let names = varyNames(stored.values("Vary"))
        if names.contains("*") { return false }
        for name in names {
            let expected = stored.varyValues[name] ?? nil
            if normalized(storedVaryValue(name, in: request, digest: digest)) != normalized(expected) { return false }
        }
        return true
    }

    /// The request header values a response's `Vary` names, for storing with it. Values of
    /// credential fields (`Authorization`, `Cookie`, …) are kept only as keyed digests, so no
    /// secret, nor anything that confirms a guess of one, reaches a disk tier.
    /// - Parameters:
    ///   - response: The response's header fields, whose `Vary` names the request fields.
    ///   - request: The request's header fields.
    ///   - digest: The cache's ``HTTPCache/credentialDigest``.
    public static func varyValues(response: HTTPFields, request: HTTPFields, digest: CredentialDigest) -> [String: String?] {
        var values: [String: String?] = [:]
        for name in varyNames(response[values: .vary]) where name != "*" {
            values[name] = storedVaryValue(name, in: request, digest: digest)
        }
        return values
    }

    private static func storedVaryValue(_ name: String, in request: HTTPFields, digest: CredentialDigest) -> String? {
        guard let value = headerValue(name, in: request) else { return nil }
        guard let fieldName = HTTPField.Name(name), Redaction.isSensitiveHeader(fieldName) else { return value }
        return "digest:" + digest(normalized(value) ?? value)
    }

    /// The lowercased field names in `Vary` values.
    static func varyNames(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }
            .map { ASCII.lowercased(ASCII.trimmed($0)) }
            .filter { !$0.isEmpty }
    }

    static func requestCacheControl(_ request: HTTPFields) -> CacheControl {
        CacheControl(request[values: .cacheControl])
    }

    private static func pragmaNoCache(_ request: HTTPFields) -> Bool {
        request[.cacheControl] == nil && request[values: CacheDecision.pragma].contains { $0.lowercased().contains("no-cache") }
    }

    static let pragma = HTTPField.Name("Pragma")!

    private static func headerValue(_ name: String, in fields: HTTPFields) -> String? {
        guard let fieldName = HTTPField.Name(name) else { return nil }
        let values = fields[values: fieldName]
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    private static func normalized(_ value: String?) -> String? {
        value.map { $0.split(separator: ",").map { ASCII.trimmed($0) }.joined(separator: ",") }
    }
}
