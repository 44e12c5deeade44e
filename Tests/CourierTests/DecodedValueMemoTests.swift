import Courier
import CourierSQLite
import CourierTesting
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// A payload that counts how often it is decoded; each test uses its own `tag` so that
/// counts from tests running in parallel do not mix.
private struct CountedPayload: Decodable, Sendable {
    static let decodes = Mutex<[String: Int]>([:])
    var tag: String
    var items: [Int]

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        tag = try container.decode(String.self, forKey: .tag)
        items = try container.decode([Int].self, forKey: .items)
        Self.decodes.withLock { $0[tag, default: 0] += 1 }
    }

    private enum CodingKeys: String, CodingKey { case tag, items }

    static func count(_ tag: String) -> Int { decodes.withLock { $0[tag] ?? 0 } }
}

@Suite("Decoded values kept beside memory-tier entries")
struct DecodedValueMemoTests {
    private func client(tag: String, storage: any CacheStorage, middleware: [any Middleware] = []) -> (APIClient, MockTransport) {
        let transport = MockTransport(always: MockResponse(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "max-age=600"],
            body: Data(#"{"tag":"\#(tag)","items":[1,2,3]}"#.utf8)
        ))
        var configuration = ClientConfiguration(baseURL: URL(string: "https://api.example.test")!, cache: HTTPCache(storage: storage, clock: ManualClock()))
        configuration.middleware = middleware
        return (APIClient(configuration: configuration, transport: transport), transport)
    }

    @Test func memoryHitsReuseTheValueDecodedFromTheSameBytes() async throws {
        let (client, transport) = client(tag: "memory", storage: MemoryCacheStorage())
        let request = Request<CountedPayload>(path: "/payload")
        var values: [CountedPayload] = []
        for _ in 0..<4 { values.append(try await client.value(for: request)) }
        #expect(values.allSatisfy { $0.items == [1, 2, 3] })
        #expect(transport.requests.count == 1)
        #expect(CountedPayload.count("memory") == 2, "the network response, then the first hit; later hits reuse it")
    }

    @Test func anotherDecoderDecodesAfresh() async throws {
        let (client, _) = client(tag: "decoder", storage: MemoryCacheStorage())
        var request = Request<CountedPayload>(path: "/payload")
        _ = try await client.value(for: request)
        _ = try await client.value(for: request)
        request.decoder = JSONDecoder()
        _ = try await client.value(for: request)
        #expect(CountedPayload.count("decoder") == 3)
    }

    @Test func aBodyRewrittenByMiddlewareIsDecodedAfresh() async throws {
        let rewrite = ClosureMiddleware { request, body, context, next in
            let (response, body) = try await next(request, body, context)
            let data = try await body?.collect(upTo: 1 << 20) ?? Data()
            let rewritten = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "[1,2,3]", with: "[\(Int.random(in: 4...1_000))]")
            return (response, HTTPBody(Data(rewritten.utf8)))
        }
        let (client, _) = client(tag: "rewritten", storage: MemoryCacheStorage(), middleware: [rewrite])
        let request = Request<CountedPayload>(path: "/payload")
        for _ in 0..<3 { _ = try await client.value(for: request) }
        #expect(CountedPayload.count("rewritten") == 3, "the bytes the caller got were never the stored ones")
    }

    @Test func diskOnlyHitsDecodeEveryTime() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-memo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (client, transport) = client(tag: "disk", storage: try SQLiteCacheStorage(url: folder.appendingPathComponent("cache.sqlite")))
        for _ in 0..<3 { _ = try await client.value(for: Request<CountedPayload>(path: "/payload")) }
        #expect(transport.requests.count == 1)
        #expect(CountedPayload.count("disk") == 3)
    }
}
