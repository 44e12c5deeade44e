import ClarityAPI
import Courier
import CourierSQLite
import Foundation
import RadarAPI
import RadarCore
import ReferenceServer

/// The app-state part of the demo: the Radar list as `RadarService` keeps it, never stale after
/// a write (seed 000), written offline and reconciled, and kept apart per account: sign-out
/// removes the user's cached responses, and a write queued by one account is never sent as
/// another.
struct DemoFidelity {
    let server: ReferenceServer
    let baseURL: URL
    let transport: any Transport
    let report: DemoReport

    func run() async throws {
        print("\n── App state: a list that is never stale after a write, and accounts kept apart")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-demo-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let disk = try SQLiteCacheStorage(url: folder.appendingPathComponent("cache.sqlite"))
        let memory = MemoryCacheStorage()
        let queue = OfflineQueue(storage: try SQLiteQueueStorage(url: folder.appendingPathComponent("queue.sqlite")))
        let connectivity = ConnectivityMonitor()
        let clarity = ClarityClient(baseURL: baseURL, transport: transport) { configuration in
            configuration.cache = HTTPCache(storage: TieredCacheStorage(memory: memory, disk: disk))
            configuration.offlineQueue = queue
            configuration.connectivity = connectivity
            configuration.retryPolicy = .none
        }
        let demo = ReferenceServerConfiguration()
        try await clarity.signIn(email: demo.demoEmail, password: demo.demoPassword)
        let radar = RadarClient(client: clarity.client.rebased(to: baseURL))
        let service = await RadarService(radar: radar)

        // Writes change the list at once and invalidate every cached page of it.
        await service.load()
        let created = try await service.create(topic: "Shown the moment it is made")
        await service.load()
        let shown = await service.radars.first?.id == created?.id && created != nil
        print("  created \(created?.id ?? "-"): at the top at once, and still there on the next load (\(await service.source.map { "\($0)" } ?? "-")): \(shown)")
        report.set("fidelity", "list_shows_created", shown ? 1 : 0)
        if let created { try await service.delete(id: created.id) }
        await service.load()
        let omitted = await !service.radars.contains { $0.id == created?.id }
        print("  deleted it: gone at once, and the next load does not bring it back: \(omitted)")
        report.set("fidelity", "list_omits_deleted", omitted ? 1 : 0)

        // Offline: the write is queued, shown as pending, and reconciled when it is delivered.
        connectivity.report(.pathChanged(.offline))
        _ = try await service.create(topic: "Written while offline")
        let pendingNow = await service.pending.count
        print("  offline: the create is queued and shows as pending (\(pendingNow) pending)")
        var states = await service.snapshots().makeAsyncIterator()
        connectivity.report(.pathChanged(.online))
        var delivered = false
        for _ in 0..<50 {
            guard let state = await states.next() else { break }
            if state.pending.isEmpty && state.radars.first?.topic == "Written while offline" { delivered = true; break }
        }
        print("  back online: delivered and in the list: \(delivered)")
        report.set("fidelity", "offline_create_pending_then_delivered", pendingNow == 1 && delivered ? 1 : 0)

        // Accounts: sign-out removes what the user's requests cached; a write queued by one
        // account waits while another is signed in.
        await service.load(forceRefresh: true)
        if let first = await service.radars.first { _ = try await radar.get(id: first.id) }
        connectivity.report(.pathChanged(.offline))
        let topic = "Queued by the demo account"
        _ = try await service.create(topic: topic)
        let partitionEntries = try memory.usage.entries + disk.usage.entries
        try await clarity.client.signOut()
        let leftAfterSignOut = try memory.usage.entries + disk.usage.entries
        print("  signed out: cached responses \(partitionEntries) → \(leftAfterSignOut); the credential is gone: \(try await clarity.session.credential == nil)")
        report.set("fidelity", "signout_cache_entries_before", partitionEntries)
        report.set("fidelity", "signout_cache_entries", leftAfterSignOut)

        let other = "other-\(UUID().uuidString.prefix(8))@courier.dev"
        try await clarity.register(email: other, password: "another-password-1", displayName: "Other")
        connectivity.report(.pathChanged(.online))
        await queue.replay()
        let otherRadars = try await radar.list(limit: 100).items
        let replayedAsOther = otherRadars.filter { $0.topic == topic }.count
        let stillQueued = try await queue.pending().count
        print("  signed in as another account: the queued write was not sent as them (\(replayedAsOther) sent, \(stillQueued) still queued)")
        report.set("fidelity", "replayed_under_other_account", replayedAsOther)

        try await clarity.client.signOut()
        try await clarity.signIn(email: demo.demoEmail, password: demo.demoPassword)
        await queue.replay()
        let mine = try await radar.list(limit: 100).items.filter { $0.topic == topic || $0.topic == "Written while offline" }
        print("  the demo account signed in again: its write was delivered (\(mine.contains { $0.topic == topic }))")
        for made in mine { try await radar.delete(id: made.id) }
    }
}
