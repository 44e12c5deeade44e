import ClarityAPI
import Courier
import CourierAsyncHTTPClient
import CourierSQLite
import CourierTesting
import Foundation
import RadarAPI
import ReferenceServer

/// Cache hits from each tier, a revalidation with a 304, and in-flight dedup.
struct CacheBenchmark {
    let server: ReferenceServer
    let baseURL: URL
    let quick: Bool

    private struct Payload: Codable, Sendable { var id: Int; var text: String }

    func run(into results: inout BenchResults) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let hits = quick ? 2_000 : 20_000

        for decodes in [true, false] {
            let suffix = decodes ? "" : "_raw"
            let memory = try await hitLatency(storage: MemoryCacheStorage(), count: hits, decodes: decodes)
            report(memory, name: "memory_hit" + suffix, into: &results)
            let file = folder.appendingPathComponent("cache\(suffix).sqlite")
            let disk = try await hitLatency(storage: try SQLiteCacheStorage(url: file), count: hits, decodes: decodes)
            report(disk, name: "disk_hit" + suffix, into: &results)
        }
        try await revalidation(count: quick ? 200 : 1_000, into: &results)
        try await dedup(into: &results)
    }

    /// An end-to-end `send` of a 1 KB JSON GET that the cache answers, timed call by call:
    /// decoded into values (`memory_hit`, `disk_hit`: what an app does, Foundation's JSON
    /// decoder included) or returned as bytes (`*_raw`: the cache path alone).
    private func hitLatency(storage: any CacheStorage, count: Int, decodes: Bool) async throws -> LatencySamples {
        let body = try JSONEncoder().encode([Payload](repeating: Payload(id: 1, text: String(repeating: "x", count: 40)), count: 20))
        let transport = MockTransport(always: MockResponse(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "max-age=3600"], body: body
        ))
        let client = APIClient(
            configuration: ClientConfiguration(baseURL: baseURL, cache: HTTPCache(storage: storage)),
            transport: transport
        )
        let request = Request<[Payload]>(path: "/bench/payload", name: "bench.payload")
        let raw = request.decoding(Data.self)
        _ = try await client.send(request)
        let operation: InterleavedRun.Operation
        if decodes {
            operation = { _ = try await client.send(request) }
        } else {
            operation = { _ = try await client.send(raw) }
        }
        let samples = try await InterleavedRun(rounds: 1, perRound: count, concurrency: 1).run([("hit", operation)])
        guard transport.requests.count == 1 else {
            throw CourierError(code: .invalidRequest, message: "cache benchmark: hits reached the transport (\(transport.requests.count) calls)")
        }
        return samples["hit"] ?? LatencySamples()
    }

    private func report(_ samples: LatencySamples, name: String, into results: inout BenchResults) {
        let p50 = samples.percentileMilliseconds(0.5) * 1_000
        let p99 = samples.percentileMilliseconds(0.99) * 1_000
        results.set("cache.\(name).p50_us", (p50 * 10).rounded() / 10)
        results.set("cache.\(name).p99_us", (p99 * 10).rounded() / 10)
        results.set("cache.\(name).operations", samples.count)
        results.set("cache.\(name).body_bytes", 1_000)
        print(String(format: "  cache %-15@ p50 %8.1f µs   p99 %8.1f µs   (%d operations)", name as NSString, p50, p99, samples.count))
    }

    /// A stored radar revalidated on every call (`Cache-Control: no-cache`): a 304 each time.
    private func revalidation(count: Int, into results: inout BenchResults) async throws {
        let transport = AsyncHTTPClientTransport()
        do {
            let clarity = ClarityClient(baseURL: baseURL, transport: transport) { $0.cache = HTTPCache(storage: MemoryCacheStorage()) }
            let demo = ReferenceServerConfiguration()
            try await clarity.signIn(email: demo.demoEmail, password: demo.demoPassword)
            let radar = clarity.client.rebased(to: baseURL)
            _ = try await radar.send(RadarEndpoints.get(id: "r_1"))
            let revalidating = RadarEndpoints.get(id: "r_1").header(.cacheControl, "no-cache")
            var statuses = [CacheStatus]()
            let samples = try await InterleavedRun(rounds: 1, perRound: count, concurrency: 1).run([
                ("revalidate", { _ = try await radar.send(revalidating) }),
            ])
            statuses.append(try await radar.send(revalidating).metrics.cacheStatus)
            let p50 = samples["revalidate"]?.percentileMilliseconds(0.5) ?? 0
            results.set("cache.revalidated_304.p50_ms", (p50 * 1_000).rounded() / 1_000)
            results.set("cache.revalidated_304.operations", samples["revalidate"]?.count ?? 0)
            results.set("cache.revalidated_304.last_status_revalidated", statuses.last == .revalidated)
            print(String(format: "  cache revalidated_304 p50 %6.3f ms   (%d operations, status %@)", p50, samples["revalidate"]?.count ?? 0, "\(statuses.last ?? .network)" as NSString))
            try await transport.shutdown()
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }

    /// 1000 concurrent identical GETs of a slow route: how many reach the server.
    private func dedup(into results: inout BenchResults) async throws {
        let transport = AsyncHTTPClientTransport(configuration: .init(connectionsPerHost: 32))
        do {
            let client = APIClient(baseURL: baseURL, transport: transport)
            await server.resetCounters()
            let started = ContinuousClock.now
            let succeeded = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<1_000 {
                    group.addTask { (try? await client.send(Request<Data>(path: "/debug/slow?ms=300"))) != nil }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            let elapsed = ContinuousClock.now - started
            let calls = await server.requestCount(method: "GET", path: "/debug/slow")
            results.set("dedup.concurrent_requests", 1_000)
            results.set("dedup.succeeded", succeeded)
            results.set("dedup.transport_calls", calls)
            results.set("dedup.elapsed_ms", (elapsed.timeInterval * 1e4).rounded() / 10)
            print("  dedup: 1000 concurrent identical GETs → \(calls) server call(s), \(succeeded) succeeded, in \(String(format: "%.1f", elapsed.timeInterval * 1_000)) ms")
            try await transport.shutdown()
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }
}
