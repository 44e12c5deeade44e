import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Synchronization
import Testing

@Suite("The cache stage, through the client")
struct CacheStageTests {
    let base = URL(string: "https://api.example.test")!

    private func client(_ transport: any Transport, cache: HTTPCache, token: String? = nil, policy: CachePolicy = .http) -> APIClient {
        var configuration = ClientConfiguration(baseURL: base, cache: cache, cachePolicy: policy, retryPolicy: .none, clock: cache.clock)
        if let token { configuration.middleware.append(BearerTokenMiddleware(token: token)) }
        return APIClient(configuration: configuration, transport: transport)
    }

    private func json(_ text: String, _ fields: HTTPFields) -> MockResponse {
        var response = MockResponse.json(text)
        response.headers.append(contentsOf: fields)
        return response
    }

    @Test func aFreshResponseIsServedWithoutTheNetworkWithAnAgeHeader() async throws {
        let clock = ManualClock()
        let cache = HTTPCache(storage: MemoryCacheStorage(), clock: clock)
        let transport = MockTransport(always: json(#"{"v":1}"#, [.cacheControl: "max-age=60"]))
        let client = client(transport, cache: cache)
        let first = try await client.send(Request<Data>(path: "/items"))
        clock.advance(by: .seconds(10))
        let second = try await client.send(Request<Data>(path: "/items"))
        #expect(transport.requests.count == 1)
        #expect(first.metrics.cacheStatus == .network)
        #expect(second.metrics.cacheStatus == .hit)
        #expect(second.metrics.attempts == 0)
        #expect(second.data == first.data)
        #expect(second.headers[.age] == "10")
    }

    @Test func noStoreResponsesAreNeverStored() async throws {
        let cache = HTTPCache(storage: MemoryCacheStorage(), clock: ManualClock())
        let transport = MockTransport(always: json(#"{"secret":1}"#, [.cacheControl: "no-store, max-age=60"]))
        let client = client(transport, cache: cache)
        _ = try await client.send(Request<Data>(path: "/me"))
        _ = try await client.send(Request<Data>(path: "/me"))
        #expect(transport.requests.count == 2)
        #expect((cache.storage as? MemoryCacheStorage)?.usage.entries == 0)
    }

    @Test func aStaleResponseIsRevalidatedAndA304ServesTheStoredBodyWithNewHeaders() async throws {
        let clock = ManualClock()
        let cache = HTTPCache(storage: MemoryCacheStorage(), clock: clock)
        let transport = MockTransport { request, _ in
            if request.headerFields[.ifNoneMatch] == "\"v1\"" {
                return MockResponse(status: .notModified, headers: [.eTag: "\"v1\"", .cacheControl: "max-age=120"])
            }
            return MockResponse(status: .ok, headers: [.eTag: "\"v1\"", .cacheControl: "max-age=60", .contentType: "application/json"], body: Data(#"{"v":1}"#.utf8))
        }
        let client = client(transport, cache: cache)
        _ = try await client.send(Request<Data>(path: "/items"))
        clock.advance(by: .seconds(90))
        let revalidated = try await client.send(Request<Data>(path: "/items"))
        #expect(revalidated.metrics.cacheStatus == .revalidated)
        #expect(revalidated.status == .ok)
        #expect(revalidated.data == Data(#"{"v":1}"#.utf8))
        #expect(revalidated.headers[.cacheControl] == "max-age=120")
        clock.advance(by: .seconds(60))
        let hit = try await client.send(Request<Data>(path: "/items"))
        #expect(hit.metrics.cacheStatus == .hit, "the 304's max-age=120 now applies")
        #expect(transport.requests.count == 2)
    }

    @Test func aSuccessfulPostInvalidatesTheStoredGet() async throws {
        let cache = HTTPCache(storage: MemoryCacheStorage(), clock: ManualClock())
        let transport = MockTransport { request, _ in
            request.method == .post ? .status(.created) : MockResponse(status: .ok, headers: [.cacheControl: "max-age=600"], body: Data("[]".utf8))
        }
        let client = client(transport, cache: cache)
        _ = try await client.send(Request<Data>(path: "/items"))
        try await client.send(Request<Void>(method: .post, path: "/items", body: .text("new")))
        let after = try await client.send(Request<Data>(path: "/items"))
        #expect(after.metrics.cacheStatus == .network)
        #expect(transport.requests.filter { $0.request.method == .get }.count == 2)
    }

    @Test func oneUsersResponsesAreNeverServedToAnother() async throws {
        let cache = HTTPCache(storage: MemoryCacheStorage(), clock: ManualClock())
        let transport = MockTransport { request, _ in
            MockResponse(status: .ok, headers: [.cacheControl: "private, max-age=600"], body: Data((request.headerFields[.authorization] ?? "").utf8))
        }
        let alice = try await client(transport, cache: cache, token: "alice").send(Request<String>(path: "/me"))
        let bob = try await client(transport, cache: cache, token: "bob").send(Request<String>(path: "/me"))
        let aliceAgain = try await client(transport, cache: cache, token: "alice").send(Request<String>(path: "/me"))
        #expect(alice.value == "Bearer alice")
        #expect(bob.value == "Bearer bob")
        #expect(bob.metrics.cacheStatus == .network)
        #expect(aliceAgain.value == "Bearer alice")
        #expect(aliceAgain.metrics.cacheStatus == .hit)
    }

    @Test func networkFirstFallsBackToTheStoredResponseWhenTheNetworkFails() async throws {
        let cache = HTTPCache(storage: MemoryCacheStorage(), clock: ManualClock())
        let failing = Mutex(false)
        let transport = MockTransport { _, _ in
            if failing.withLock({ $0 }) { throw CourierError(code: .cannotConnect, message: "down") }
            return MockResponse(status: .ok, headers: [.cacheControl: "max-age=0"], body: Data("cached".utf8))
        }
        let client = client(transport, cache: cache, policy: .networkFirst)
        _ = try await client.send(Request<String>(path: "/feed"))
        failing.withLock { $0 = true }
        let fallback = try await client.send(Request<String>(path: "/feed"))
        #expect(fallback.value == "cached")
        #expect(fallback.metrics.cacheStatus == .stale)
        let disconnected = try await self.client(transport, cache: cache, policy: .http).send(Request<String>(path: "/feed"))
        #expect(disconnected.metrics.cacheStatus == .stale, "a disconnected cache may serve stale under the HTTP rules too")
        let fresh = await courierError {
            _ = try await self.client(transport, cache: cache, policy: .http).send(Request<String>(path: "/feed", headers: [.cacheControl: "no-cache"]))
        }
        #expect(fresh?.status?.code == 504, "a request that asks for a fresh answer gets a generated 504")
        #expect(fresh?.bodySnippet?.contains("cannotConnect") == true, "which names the failure")
    }

    @Test func aCacheOnlyMissIsNotCachedWithoutAServerProblemText() async throws {
        let cache = HTTPCache(storage: MemoryCacheStorage(), clock: ManualClock())
        let transport = MockTransport(always: .status(.ok))
        let error = await courierError { _ = try await client(transport, cache: cache, policy: .cacheOnly).send(Request<Data>(path: "/x")) }
        #expect(error?.code == .notCached)
        #expect(error?.userFacing.title.contains("Server") == false)
        #expect(transport.requests.isEmpty)
    }

    @Test func aRequestsOwnOnlyIfCachedStillGetsHTTPs504() async throws {
        let cache = HTTPCache(storage: MemoryCacheStorage(), clock: ManualClock())
        let transport = MockTransport(always: .status(.ok))
        let error = await courierError {
            _ = try await client(transport, cache: cache, policy: .http).send(Request<Data>(path: "/x", headers: [.cacheControl: "only-if-cached"]))
        }
        #expect(error?.status?.code == 504)
        #expect(transport.requests.isEmpty)
    }

    @Test func staleWhileRevalidateServesAtOnceAndPublishesTheFreshValue() async throws {
        let clock = ManualClock()
        let cache = HTTPCache(storage: MemoryCacheStorage(), clock: clock)
        let version = Mutex(1)
        let transport = MockTransport { _, _ in
            let value = version.withLock { $0 }
            return MockResponse(status: .ok, headers: [.cacheControl: "max-age=10"], body: Data("v\(value)".utf8))
        }
        let client = client(transport, cache: cache, policy: .staleWhileRevalidate)
        let updates = cache.updates()
        _ = try await client.send(Request<String>(path: "/list"))
        clock.advance(by: .seconds(60))
        version.withLock { $0 = 2 }
        let served = try await client.send(Request<String>(path: "/list"))
        #expect(served.value == "v1")
        #expect(served.metrics.cacheStatus == .stale)
        var iterator = updates.makeAsyncIterator()
        let update = await iterator.next()
        #expect(update?.response.body == Data("v2".utf8))
        #expect(transport.requests.count == 2)
    }

    @Test func aTruncatedBodyIsNeverStored() async throws {
        struct Truncating: Transport {
            func send(_ request: HTTPRequest, body: HTTPBody?, context: RequestContext) async throws -> (HTTPResponse, HTTPBody?) {
                let chunks = AsyncThrowingStream<Data, any Error> { continuation in
                    continuation.yield(Data("partial".utf8))
                    continuation.finish(throwing: CourierError(code: .connectionLost, message: "closed early"))
                }
                return (HTTPResponse(status: .ok, headerFields: [.cacheControl: "max-age=600", .contentLength: "100"]),
                        HTTPBody(chunks, length: .known(100)))
            }
        }
        let storage = MemoryCacheStorage()
        let cache = HTTPCache(storage: storage, clock: ManualClock())
        let error = await courierError { _ = try await client(Truncating(), cache: cache).send(Request<Data>(path: "/x")) }
        #expect(error?.code == .connectionLost)
        #expect(storage.usage.entries == 0)
    }

    @Test func clearingAPartitionRemovesOnlyThatUsersEntries() async throws {
        let storage = MemoryCacheStorage()
        let cache = HTTPCache(storage: storage, clock: ManualClock())
        let response = CachedResponse(status: 200, fields: [], body: Data("x".utf8), requestDate: Date(), responseDate: Date())
        try await storage.store(response, for: CacheKey(method: "GET", url: "https://a/1", partition: "alice"))
        try await storage.store(response, for: CacheKey(method: "GET", url: "https://a/1", partition: "bob"))
        try await cache.clear(partition: "alice")
        #expect(try await storage.variants(for: CacheKey(method: "GET", url: "https://a/1", partition: "alice")).isEmpty)
        #expect(try await storage.variants(for: CacheKey(method: "GET", url: "https://a/1", partition: "bob")).count == 1)
    }
}

@Suite("The memory tier")
struct MemoryCacheStorageTests {
    private func entry(bytes: Int) -> CachedResponse {
        CachedResponse(status: 200, fields: [], body: Data(repeating: 7, count: bytes), requestDate: Date(), responseDate: Date())
    }

    private func key(_ index: Int) -> CacheKey { CacheKey(method: "GET", url: "https://a/\(index)") }

    @Test func theLeastRecentlyUsedIsEvictedPastTheByteBudget() async throws {
        let storage = MemoryCacheStorage(maxBytes: 3_000, maxEntries: 100)
        for index in 0..<3 { try await storage.store(entry(bytes: 900), for: key(index)) }
        _ = try await storage.variants(for: key(0))
        try await storage.store(entry(bytes: 900), for: key(3))
        #expect(try await storage.variants(for: key(1)).isEmpty, "1 was used least recently")
        #expect(try await storage.variants(for: key(0)).count == 1)
        #expect(storage.usage.bytes <= 3_000)
    }

    @Test func theCountBudgetEvictsToo() async throws {
        let storage = MemoryCacheStorage(maxBytes: 1 << 20, maxEntries: 2)
        for index in 0..<3 { try await storage.store(entry(bytes: 10), for: key(index)) }
        #expect(storage.usage.entries == 2)
        #expect(try await storage.variants(for: key(0)).isEmpty)
    }

    @Test func variantsOfOneKeyAreKeptApartAndReplacedByTheirVaryValues() async throws {
        let storage = MemoryCacheStorage()
        var english = entry(bytes: 1)
        english.varyValues = ["accept-language": "en"]
        var french = entry(bytes: 2)
        french.varyValues = ["accept-language": "fr"]
        try await storage.store(english, for: key(0))
        try await storage.store(french, for: key(0))
        try await storage.store(english, for: key(0))
        #expect(try await storage.variants(for: key(0)).count == 2)
        #expect(storage.usage.entries == 2)
    }

    @Test func aResponseLargerThanTheWholeBudgetIsNotStored() async throws {
        let storage = MemoryCacheStorage(maxBytes: 100)
        try await storage.store(entry(bytes: 1_000), for: key(0))
        #expect(storage.usage.entries == 0)
    }
}
