import Courier
import Foundation
import HTTPTypes
import Testing

@Suite("Cache decisions (pure)")
struct CacheDecisionTests {
    let received = Date(timeIntervalSince1970: 1_800_000_000)
    let digest = CredentialDigest(key: Array("test secret".utf8))

    private func stored(_ fields: [(String, String)], vary: [String: String?] = [:]) -> CachedResponse {
        CachedResponse(status: 200, fields: fields.map { .init(name: $0.0, value: $0.1) }, body: Data("x".utf8),
                       requestDate: received, responseDate: received, varyValues: vary)
    }

    private func lookup(_ entry: CachedResponse?, request: HTTPFields = [:], policy: CachePolicy = .http, after seconds: TimeInterval = 10) -> CacheLookup {
        CacheDecision.lookup(request: request, variants: entry.map { [$0] } ?? [], policy: policy, now: received.addingTimeInterval(seconds), digest: digest)
    }

    @Test func aFreshResponseIsServedAndAStaleOneRevalidatedWithItsValidators() {
        let entry = stored([("Cache-Control", "max-age=60"), ("ETag", "\"v1\""), ("Last-Modified", "Sun, 06 Nov 1994 08:49:37 GMT")])
        #expect(lookup(entry) == .serve(entry, .hit))
        guard case .revalidate(_, let conditions) = lookup(entry, after: 120) else {
            Issue.record("expected a revalidation")
            return
        }
        #expect(conditions[.ifNoneMatch] == "\"v1\"")
        #expect(conditions[.ifModifiedSince] == "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    @Test func aStaleResponseWithoutValidatorsGoesToTheNetworkKeepingAFallback() {
        let entry = stored([("Cache-Control", "max-age=1")])
        #expect(lookup(entry) == .network(fallback: entry))
    }

    @Test func requestDirectivesAreHonoured() {
        let entry = stored([("Cache-Control", "max-age=60"), ("ETag", "\"v1\"")])
        #expect(lookup(entry, request: [.cacheControl: "no-cache"]) != .serve(entry, .hit))
        #expect(lookup(entry, request: [.cacheControl: "max-age=5"]) != .serve(entry, .hit), "10 s old is older than 5 s")
        #expect(lookup(entry, request: [.cacheControl: "max-age=30"]) == .serve(entry, .hit))
        #expect(lookup(entry, request: [.cacheControl: "min-fresh=55"]) != .serve(entry, .hit), "50 s left is less than 55")
        #expect(lookup(entry, request: [.cacheControl: "no-store"]) == .network(fallback: nil))
        #expect(lookup(entry, request: [HTTPField.Name("Pragma")!: "no-cache"]) != .serve(entry, .hit))
    }

    @Test func maxStaleAcceptsStaleResponsesUnlessMustRevalidate() {
        let entry = stored([("Cache-Control", "max-age=1")])
        #expect(lookup(entry, request: [.cacheControl: "max-stale=60"]) == .serve(entry, .stale))
        #expect(lookup(entry, request: [.cacheControl: "max-stale=5"]) == .network(fallback: entry), "9 s stale is more than 5")
        #expect(lookup(entry, request: [.cacheControl: "max-stale"]) == .serve(entry, .stale))
        let strict = stored([("Cache-Control", "max-age=1, must-revalidate")])
        #expect(lookup(strict, request: [.cacheControl: "max-stale"]) == .network(fallback: strict))
    }

    @Test func onlyIfCachedAnswers504WhenNothingUsableIsStored() {
        #expect(lookup(nil, request: [.cacheControl: "only-if-cached"]) == .gatewayTimeout)
        let stale = stored([("Cache-Control", "max-age=1")])
        #expect(lookup(stale, request: [.cacheControl: "only-if-cached"]) == .gatewayTimeout)
        let fresh = stored([("Cache-Control", "max-age=60")])
        #expect(lookup(fresh, request: [.cacheControl: "only-if-cached"]) == .serve(fresh, .hit))
    }

    @Test func aNoCacheResponseIsAlwaysRevalidated() {
        let entry = stored([("Cache-Control", "no-cache, max-age=600"), ("ETag", "\"a\"")])
        guard case .revalidate = lookup(entry) else {
            Issue.record("expected a revalidation")
            return
        }
    }

    @Test func staleWhileRevalidateServesWithinItsWindowAndRefreshes() {
        let entry = stored([("Cache-Control", "max-age=1, stale-while-revalidate=60"), ("ETag", "\"a\"")])
        guard case .serveAndRefresh(let served, let conditions) = lookup(entry) else {
            Issue.record("expected serve-and-refresh")
            return
        }
        #expect(served == entry)
        #expect(conditions?[.ifNoneMatch] == "\"a\"")
        guard case .revalidate = lookup(entry, after: 120) else {
            Issue.record("past the window: revalidate")
            return
        }
    }

    @Test func staleIfErrorAllowsAStaleFallbackWithinItsWindow() {
        let entry = stored([("Cache-Control", "max-age=1, stale-if-error=60")])
        #expect(CacheDecision.mayServeOnError(entry, request: [:], now: received.addingTimeInterval(30)))
        #expect(!CacheDecision.mayServeOnError(entry, request: [:], now: received.addingTimeInterval(120)))
        let plain = stored([("Cache-Control", "max-age=1")])
        #expect(!CacheDecision.mayServeOnError(plain, request: [:], now: received.addingTimeInterval(30)))
        #expect(CacheDecision.mayServeOnError(plain, request: [.cacheControl: "stale-if-error=60"], now: received.addingTimeInterval(30)))
    }

    @Test func aDisconnectedCacheMayServeStaleUnlessForbidden() {
        #expect(CacheDecision.mayServeWhenDisconnected(stored([("Cache-Control", "max-age=1")]), request: [:]))
        #expect(!CacheDecision.mayServeWhenDisconnected(stored([("Cache-Control", "max-age=1, must-revalidate")]), request: [:]))
        #expect(!CacheDecision.mayServeWhenDisconnected(stored([("Cache-Control", "no-cache")]), request: [:]))
        #expect(!CacheDecision.mayServeWhenDisconnected(stored([("Cache-Control", "max-age=1")]), request: [.cacheControl: "no-cache"]))
        #expect(!CacheDecision.mayServeWhenDisconnected(stored([("Cache-Control", "max-age=1")]), request: [.cacheControl: "max-age=0"]))
    }

    @Test func varySelectsTheVariantWhoseRequestHeadersMatch() {
        let english = stored([("Cache-Control", "max-age=60"), ("Vary", "Accept-Language")], vary: ["accept-language": "en"])
        let french = stored([("Cache-Control", "max-age=60"), ("Vary", "Accept-Language")], vary: ["accept-language": "fr"])
        let result = CacheDecision.lookup(request: [.acceptLanguage: "fr"], variants: [english, french], policy: .http, now: received, digest: digest)
        #expect(result == .serve(french, .hit))
        let none = CacheDecision.lookup(request: [.acceptLanguage: "de"], variants: [english, french], policy: .http, now: received, digest: digest)
        #expect(none == .network(fallback: nil))
        let star = stored([("Cache-Control", "max-age=60"), ("Vary", "*")])
        #expect(lookup(star) == .network(fallback: nil))
    }

    @Test func varyOnACredentialStoresADigestNotTheSecretAndStillMatches() {
        let request: HTTPFields = [.authorization: "Bearer s3cret-token", .acceptLanguage: "en"]
        let response: HTTPFields = [.vary: "Authorization, Accept-Language", .cacheControl: "max-age=60"]
        let values = CacheDecision.varyValues(response: response, request: request, digest: digest)
        #expect(values["accept-language"] == "en")
        #expect(values["authorization"]??.contains("s3cret") == false)
        let entry = stored([("Cache-Control", "max-age=60"), ("Vary", "Authorization, Accept-Language")], vary: values)
        #expect(CacheDecision.matchesVary(entry, request: request, digest: digest))
        #expect(!CacheDecision.matchesVary(entry, request: [.authorization: "Bearer other", .acceptLanguage: "en"], digest: digest))
        let anotherStoresSecret = CredentialDigest(key: Array("another store".utf8))
        #expect(!CacheDecision.matchesVary(entry, request: request, digest: anotherStoresSecret), "the digest is keyed: without the secret it confirms nothing")
    }

    @Test func appPoliciesOverrideTheRules() {
        let stale = stored([("Cache-Control", "max-age=1")])
        #expect(lookup(stale, policy: .cacheFirst) == .serve(stale, .stale))
        #expect(lookup(stale, policy: .cacheOnly) == .serve(stale, .stale))
        #expect(lookup(nil, policy: .cacheOnly) == .gatewayTimeout)
        #expect(lookup(nil, policy: .cacheFirst) == .network(fallback: nil))
        #expect(lookup(stale, policy: .networkFirst) == .network(fallback: stale))
        #expect(lookup(stale, policy: .bypass) == .network(fallback: nil))
        let plain = stored([])
        #expect(lookup(plain, policy: .ttl(.seconds(60))) == .serve(plain, .hit))
        #expect(lookup(plain, policy: .http) == .network(fallback: plain))
    }

    @Test func storabilityFollowsRFC9111() {
        func storable(_ status: HTTPResponse.Status, _ fields: HTTPFields, request: HTTPFields = [:], method: HTTPRequest.Method = .get) -> Bool {
            CacheRules.isStorable(method: method, request: request, response: HTTPResponse(status: status, headerFields: fields))
        }
        #expect(storable(.ok, [:]))
        #expect(!storable(.ok, [.cacheControl: "no-store"]))
        #expect(!storable(.ok, [:], request: [.cacheControl: "no-store"]))
        #expect(!storable(.ok, [.vary: "*"]))
        #expect(!storable(.ok, [:], method: .post))
        #expect(!storable(.created, [:]))
        #expect(storable(.created, [.cacheControl: "max-age=60"]))
        #expect(storable(.notFound, [:]))
        #expect(!storable(.partialContent, [.cacheControl: "max-age=60"]))
        #expect(storable(.ok, [.cacheControl: "private"]), "a private cache stores private responses")
    }

    @Test func a304ReplacesHeadersButNotContentLength() {
        let entry = stored([("ETag", "\"a\""), ("Content-Length", "1"), ("X-Old", "1"), ("Cache-Control", "max-age=1")])
        let updated = CacheRules.updated(entry, with: [.cacheControl: "max-age=600", .contentLength: "0", HTTPField.Name("X-New")!: "2"],
                                         requestDate: received.addingTimeInterval(5), responseDate: received.addingTimeInterval(6))
        #expect(updated.values("Cache-Control") == ["max-age=600"])
        #expect(updated.values("Content-Length") == ["1"])
        #expect(updated.values("X-Old") == ["1"])
        #expect(updated.values("X-New") == ["2"])
        #expect(updated.body == entry.body)
        #expect(updated.responseDate == received.addingTimeInterval(6))
    }

    @Test func unsafeRequestsInvalidateTheirURLAndSameOriginLocations() {
        let response = HTTPResponse(status: .created, headerFields: [.location: "/items/2", .contentLocation: "https://other.test/x"])
        #expect(CacheRules.invalidatedURLs(requestURL: "https://api.test/items", response: response) == ["https://api.test/items", "https://api.test/items/2"])
        #expect(CacheRules.invalidatedURLs(requestURL: "https://api.test/items", response: HTTPResponse(status: .internalServerError)).isEmpty)
    }
}
