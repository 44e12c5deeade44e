import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import RadarAPI
import RadarCore
import ReferenceServer
import Testing

@Suite("Cached first, then fresh: cachedThenFresh and RadarService")
@MainActor
struct RadarServiceTests {
    /// A Radar client with a memory cache on a manual clock, and a second client without a
    /// cache, for changes the first does not see.
    private func withClients(
        _ body: (RadarClient, RadarClient, ManualClock, ReferenceServer) async throws -> Void
    ) async throws {
        try await withRunningServer { server, url in
            let transport = AsyncHTTPClientTransport()
            let token = try await demoToken(server)
            let clock = ManualClock()
            var cached = ClientConfiguration(baseURL: url, cache: HTTPCache(storage: MemoryCacheStorage(), clock: clock))
            cached.retryPolicy = .none
            cached.middleware.append(BearerTokenMiddleware(token: token))
            let other = RadarClient(baseURL: url, transport: transport, token: token)
            do {
                try await body(RadarClient(client: APIClient(configuration: cached, transport: transport)), other, clock, server)
                try await transport.shutdown()
            } catch {
                try? await transport.shutdown()
                throw error
            }
        }
    }

    @Test func aStaleListIsShownAtOnceThenReplacedByTheServersList() async throws {
        try await withClients { radar, other, clock, _ in
            let service = RadarService(radar: radar)
            await service.load()
            #expect(service.source == .network)
            #expect(service.radars.count == 3)
            _ = try await other.create(topic: "Made elsewhere")
            clock.advance(by: .seconds(60))

            let snapshots = service.snapshots()
            await service.load()
            var seen: [RadarService.Snapshot] = []
            for await snapshot in snapshots {
                seen.append(snapshot)
                if seen.count == 5 { break }
            }
            // now, loading, the stale list, the fresh list, loading done
            #expect(seen.map(\.isLoading) == [false, true, true, true, false])
            #expect(seen[2].source == .stale)
            #expect(seen[2].radars.count == 3)
            #expect(seen[3].source == .network)
            #expect(seen[3].radars.count == 4)
            #expect(service.radars.first?.topic == "Made elsewhere")
            #expect(service.error == nil)
        }
    }

    @Test func aFailedRefreshKeepsTheStaleListAndReportsTheError() async throws {
        try await withClients { radar, _, clock, server in
            let service = RadarService(radar: radar)
            await service.load()
            clock.advance(by: .seconds(60))
            server.faults.inject(.status(500), count: 1, method: "GET", path: "/api/radars")
            await service.load()
            #expect(service.radars.count == 3)
            #expect(service.source == .stale)
            #expect(service.error?.code == .serverError)
            #expect(!service.isLoading)
        }
    }

    @Test func aFreshEntryOrNoCacheGivesOneResponse() async throws {
        try await withClients { radar, other, _, server in
            var fresh: [CacheStatus] = []
            for try await page in radar.client.cachedThenFresh(RadarEndpoints.list()) { fresh.append(page.metrics.cacheStatus) }
            for try await page in radar.client.cachedThenFresh(RadarEndpoints.list()) { fresh.append(page.metrics.cacheStatus) }
            #expect(fresh == [.network, .hit])
            var uncached: [CacheStatus] = []
            for try await page in other.client.cachedThenFresh(RadarEndpoints.list()) { uncached.append(page.metrics.cacheStatus) }
            #expect(uncached == [.network])
            #expect(await server.requestCount(method: "GET", path: "/api/radars") == 2)
        }
    }

    @Test func aStaleEntryRevalidatedWithA304IsReportedAsRevalidated() async throws {
        try await withClients { radar, _, clock, _ in
            _ = try await radar.list()
            clock.advance(by: .seconds(60))
            var statuses: [CacheStatus] = []
            for try await page in radar.client.cachedThenFresh(RadarEndpoints.list()) { statuses.append(page.metrics.cacheStatus) }
            #expect(statuses == [.stale, .revalidated])
        }
    }
}
