import ClarityAPI
import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import RadarAPI
import ReferenceServer
import Testing

@Suite("The cache against the reference server")
struct CacheIntegrationTests {
    @Test func radarGetsAreServedRevalidatedWithETagsAndInvalidatedByARefresh() async throws {
        try await withRunningServer { server, url in
            let clock = ManualClock()
            let cache = HTTPCache(storage: MemoryCacheStorage(), clock: clock)
            try await withTransport(AsyncHTTPClientTransport()) { transport in
                let clarity = ClarityClient(baseURL: url, transport: transport) { configuration in
                    configuration.cache = cache
                    configuration.clock = clock
                }
                let demo = ReferenceServerConfiguration()
                try await clarity.signIn(email: demo.demoEmail, password: demo.demoPassword)
                let radar = radarClient(sharing: clarity)
                let path = "/api/radars/r_1"
                await server.resetCounters()

                let first = try await radar.client.send(RadarEndpoints.get(id: "r_1"))
                let second = try await radar.client.send(RadarEndpoints.get(id: "r_1"))
                #expect(first.metrics.cacheStatus == .network)
                #expect(second.metrics.cacheStatus == .hit)
                #expect(second.value == first.value)
                #expect(await server.requestCount(method: "GET", path: path) == 1)

                let refreshed = try await radar.refresh(id: "r_1")
                let afterRefresh = try await radar.client.send(RadarEndpoints.get(id: "r_1"))
                #expect(afterRefresh.metrics.cacheStatus == .network, "the refresh answered with Content-Location: /api/radars/r_1, which invalidates it")
                #expect(afterRefresh.value.refreshCount == refreshed.refreshCount)
                #expect(await server.requestCount(method: "GET", path: path) == 2)

                clock.advance(by: .seconds(40))
                let revalidated = try await radar.client.send(RadarEndpoints.get(id: "r_1"))
                #expect(revalidated.metrics.cacheStatus == .revalidated, "stale after 40 s; the server's 304 confirms the ETag")
                #expect(revalidated.value == afterRefresh.value)
                #expect(await server.requestCount(method: "GET", path: path) == 3)

                // Another user shares the cache but not its entries.
                let other = ClarityClient(baseURL: url, transport: transport) { configuration in
                    configuration.cache = cache
                    configuration.clock = clock
                }
                try await other.register(email: "other@courier.dev", password: "another-password")
                let otherPage = try await radarClient(sharing: other).client.send(RadarEndpoints.list())
                #expect(otherPage.metrics.cacheStatus == .network)
            }
        }
    }
}
