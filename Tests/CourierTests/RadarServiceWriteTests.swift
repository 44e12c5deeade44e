import ClarityAPI
import Courier
import CourierAsyncHTTPClient
import CourierCLI
import CourierTesting
import Foundation
import RadarAPI
import RadarCore
import ReferenceServer
import Testing

@Suite("RadarService after writes: never stale, pending while offline")
@MainActor
struct RadarServiceWriteTests {
    /// A Radar client with a memory cache (list `private, max-age=30`, so a second load within
    /// the minute is a fresh hit) and, optionally, an offline queue behind a connectivity
    /// monitor; and a second client without a cache, for changes made elsewhere.
    ///
    /// The cached client signs with an ``AuthSession`` (a CLARITY sign-in), so that queued
    /// writes are signed again when they are replayed.
    private func withClients(
        offline queue: OfflineQueue? = nil,
        monitor: ConnectivityMonitor? = nil,
        _ body: (RadarClient, RadarClient, MemoryCacheStorage, ReferenceServer) async throws -> Void
    ) async throws {
        try await withRunningServer { server, url in
            let tokens = try await server.issueTokens(email: ReferenceServerConfiguration().demoEmail)
            let transport = AsyncHTTPClientTransport()
            let storage = MemoryCacheStorage()
            let clarity = ClarityClient(baseURL: url, transport: transport) { configuration in
                configuration.cache = HTTPCache(storage: storage)
                configuration.retryPolicy = .none
                configuration.offlineQueue = queue
                configuration.connectivity = monitor
            }
            let other = RadarClient(baseURL: url, transport: transport, token: tokens.accessToken)
            do {
                try await clarity.session.signIn(tokens.credential(issuedAt: Date()))
                try await body(radarClient(sharing: clarity), other, storage, server)
                try await transport.shutdown()
            } catch {
                try? await transport.shutdown()
                throw error
            }
        }
    }

    /// Waits (bounded by count, not time) until the service's state satisfies `condition`.
    private func waitFor(_ service: RadarService, _ condition: (RadarService.Snapshot) -> Bool) async -> Bool {
        if condition(service.snapshot) { return true }
        var seen = 0
        for await snapshot in service.snapshots() {
            if condition(snapshot) { return true }
            seen += 1
            if seen > 50 { return false }
        }
        return false
    }

    @Test func theListRightAfterACreateContainsItWithoutWaiting() async throws {
        try await withClients { radar, _, _, _ in
            let service = RadarService(radar: radar)
            await service.load()
            let created = try #require(try await service.create(topic: "Made just now"))
            #expect(service.radars.first?.id == created.id, "inserted at the top at once")
            await service.load()
            #expect(service.source == .network, "the write invalidated the cached list")
            #expect(service.radars.first?.id == created.id)
        }
    }

    @Test func aDeletedRadarDoesNotComeBackOnTheNextLoad() async throws {
        try await withClients { radar, _, _, _ in
            let service = RadarService(radar: radar)
            await service.load()
            let victim = try #require(service.radars.first)
            try await service.delete(id: victim.id)
            #expect(!service.radars.contains { $0.id == victim.id })
            await service.load()
            #expect(!service.radars.contains { $0.id == victim.id })
        }
    }

    @Test func aRefreshReplacesTheRadarInTheList() async throws {
        try await withClients { radar, _, _, _ in
            let service = RadarService(radar: radar)
            await service.load()
            let first = try #require(service.radars.first)
            let refreshed = try #require(try await service.refresh(id: first.id))
            #expect(refreshed.refreshCount == first.refreshCount + 1)
            #expect(service.radars.first { $0.id == first.id }?.refreshCount == refreshed.refreshCount)
            await service.load()
            #expect(service.radars.first { $0.id == first.id }?.refreshCount == refreshed.refreshCount, "no stale copy")
        }
    }

    @Test func pullToRefreshAsksTheServerEvenWhenTheCachedListIsFresh() async throws {
        try await withClients { radar, other, _, _ in
            let service = RadarService(radar: radar)
            await service.load()
            _ = try await other.create(topic: "Made on another device")
            await service.load()
            #expect(service.source == .hit)
            #expect(!service.radars.contains { $0.topic == "Made on another device" })
            await service.load(forceRefresh: true)
            #expect(service.radars.first?.topic == "Made on another device")
        }
    }

    @Test func aWriteInvalidatesEveryPageOfTheCollection() async throws {
        try await withClients { radar, _, storage, _ in
            _ = try await radar.list(limit: 2, offset: 0)
            _ = try await radar.list(limit: 2, offset: 2)
            let shown = try await radar.list(limit: 20)
            _ = try await radar.get(id: try #require(shown.items.first?.id))
            #expect(storage.usage.entries == 4)
            _ = try await radar.create(topic: "Changes every page")
            #expect(storage.usage.entries == 0)
        }
    }

    @Test func offlineWritesShowAsPendingAndAreReconciledWhenDelivered() async throws {
        let queue = OfflineQueue(storage: MemoryQueueStorage())
        let monitor = ConnectivityMonitor()
        try await withClients(offline: queue, monitor: monitor) { radar, other, _, _ in
            let service = RadarService(radar: radar)
            let victim = try #require(try await other.list().items.first)
            await service.load()
            monitor.report(.pathChanged(.offline))
            #expect(try await service.create(topic: "Written offline") == nil, "queued, not delivered")
            try await service.delete(id: victim.id)
            #expect(service.pending.count == 2)
            #expect(service.pending.first?.kind == .create(topic: "Written offline"))
            #expect(!service.radars.contains { $0.id == victim.id }, "a pending delete hides its radar")

            monitor.report(.pathChanged(.online))
            #expect(await waitFor(service) { $0.pending.isEmpty })
            #expect(service.radars.first?.topic == "Written offline", "the delivered radar joins the list")
            let server = try await other.list(limit: 100).items
            #expect(server.contains { $0.topic == "Written offline" })
            #expect(!server.contains { $0.id == victim.id })
            #expect(service.error == nil)
        }
    }

    @Test func aDeadLetteredWriteIsRolledBackWithATypedError() async throws {
        let queue = OfflineQueue(storage: MemoryQueueStorage())
        let monitor = ConnectivityMonitor()
        try await withClients(offline: queue, monitor: monitor) { radar, _, _, server in
            let service = RadarService(radar: radar)
            await service.load()
            monitor.report(.pathChanged(.offline))
            let victim = try #require(service.radars.first)
            try await service.delete(id: victim.id)
            #expect(!service.radars.contains { $0.id == victim.id })
            server.faults.inject(.status(422), count: 1, method: "DELETE", path: "/api/radars/\(victim.id)")
            monitor.report(.pathChanged(.online))
            #expect(await waitFor(service) { $0.pending.isEmpty })
            #expect(service.radars.contains { $0.id == victim.id }, "the delete was undone")
            #expect(service.error?.code == .clientError)
            #expect(service.error?.status?.code == 422)
        }
    }
}

@Suite("StubTransport: responses by request, delay, offline")
struct StubTransportTests {
    struct Item: Codable, Sendable, Equatable { var id: Int }

    @Test func answersByMethodAndPathWithOrWithoutTheQuery() async throws {
        let transport = StubTransport()
        transport.stub(.get, "/items", with: try .json([Item(id: 1)]))
        transport.stub(.get, "/items?page=2", with: try .json([Item(id: 2)]))
        let client = APIClient(baseURL: URL(string: "https://stub.test")!, transport: transport)
        #expect(try await client.value(for: Request<[Item]>(path: "/items", query: [URLQueryItem(name: "page", value: "1")])) == [Item(id: 1)])
        #expect(try await client.value(for: Request<[Item]>(path: "/items", query: [URLQueryItem(name: "page", value: "2")])) == [Item(id: 2)])
        await #expect(throws: CourierError.self) { try await client.value(for: Request<[Item]>(path: "/missing")) }
        #expect(transport.requests.count == 3)
    }

    @Test func offlineFailsWithTheOfflineCodeAndTheDelayRunsOnTheClock() async throws {
        let clock = ManualClock(mode: .autoAdvance)
        let transport = StubTransport(clock: clock)
        transport.stub(.get, "/items", with: try .json([Item(id: 1)]))
        var configuration = ClientConfiguration(baseURL: URL(string: "https://stub.test")!)
        configuration.retryPolicy = .none
        let client = APIClient(configuration: configuration, transport: transport)
        transport.delay = .seconds(3)
        #expect(try await client.value(for: Request<[Item]>(path: "/items")) == [Item(id: 1)])
        #expect(clock.sleeps.contains(.seconds(3)))
        transport.isOffline = true
        let error = await #expect(throws: CourierError.self) { try await client.value(for: Request<[Item]>(path: "/items")) }
        #expect(error?.code == .offline)
    }
}
