import ClarityAPI
import Courier
import CourierSQLite
import CourierTesting
import Foundation
import IntervalsAPI
import IntervalsCore
import RadarAPI
import ReferenceServer

/// The caching part of the demo: an RFC 9111 cache on memory and SQLite, repositories,
/// CLARITY's immutable results, stale-while-revalidate for the radar list, and dedup.
///
/// The cache runs on a `ManualClock` so the demo can move its time forward
/// ("five minutes later") instead of waiting; the network and the server run in real time.
struct DemoCaching {
    let server: ReferenceServer
    let baseURL: URL
    let transport: any Transport
    /// A Radar client without a cache, for changes the cached client does not see.
    let otherRadar: RadarClient
    let report: DemoReport

    func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cacheClock = ManualClock()
        let disk = try SQLiteCacheStorage(url: folder.appendingPathComponent("responses.sqlite"), clock: cacheClock)
        let cache = HTTPCache(storage: TieredCacheStorage(memory: MemoryCacheStorage(), disk: disk), clock: cacheClock)
        let clarity = ClarityClient(baseURL: baseURL, transport: transport) { $0.cache = cache }
        let demo = ReferenceServerConfiguration()
        let user = try await clarity.signIn(email: demo.demoEmail, password: demo.demoPassword)

        // intervals.icu's athlete-scoped paths, signed with the athlete's personal API key
        // (Basic API_KEY:<key>); the client normalises the server's address to /api/v1.
        let intervals = IntervalsClient(baseURL: baseURL, transport: transport, auth: .apiKey(demo.demoAPIKey)) { $0.cache = cache }
        try await showRepositories(intervals, clock: cacheClock)
        try await showClarity(clarity, user: user)
        try await showStaleWhileRevalidate(RadarClient(client: clarity.client.rebased(to: baseURL)), clock: cacheClock)
        try await showDedup()
        let usage = try disk.usage
        print("  the disk tier holds \(usage.entries) responses (\(usage.bytes) bytes) in an owner-only SQLite file")
        report.set("cache", "disk_entries", usage.entries)
        try await clarity.signOut()
    }

    private func showRepositories(_ intervals: IntervalsClient, clock: ManualClock) async throws {
        print("\n── Caching: repositories on an RFC 9111 cache (memory + SQLite)")
        await server.resetCounters()
        // The reference server's synthetic history ends on 20 November 2026; a fixed window keeps
        // the demo's numbers the same whatever today is (`activities.list()` reads the last 90 days).
        let oldest = CalendarDay("2026-10-01")!, newest = CalendarDay("2026-11-20")!
        let activities = try await intervals.activities(from: oldest, through: newest)
        _ = try await intervals.activities(from: oldest, through: newest)
        let listGets = await server.requestCount(method: "GET", path: "/api/v1/athlete/0/activities")
        print("  GET /athlete/0/activities?oldest&newest twice → \(activities.count) activities, \(listGets) server call (the second came from the cache)")
        let week = try await intervals.wellness.range(from: CalendarDay("2026-11-14")!, through: newest)
        if let before = week.first?.ctl, let after = week.last?.ctl, let form = week.last?.form {
            print("  wellness 14–20 Nov: \(week.count) days, fitness \(before) → \(after), form \(String(format: "%.1f", form))")
        }
        clock.advance(by: .seconds(301))
        var listRequest = IntervalsEndpoints.activities(oldest: oldest, newest: newest)
        listRequest.options.cachePolicy = .http
        let stale = try await intervals.client.send(listRequest)
        print("  five minutes later (cache clock) → \(stale.metrics.cacheStatus): If-None-Match answered 304, stored body reused")
        var today = Wellness(id: newest)
        today.weight = 70.4
        today.mood = 1
        let written = try await intervals.wellness.save(today)
        let reread = try await intervals.wellness.day(newest)
        print("  PUT /athlete/0/wellness/\(newest) → weight \(written.weight ?? 0) kg stored; fitness kept at \(reread?.ctl ?? 0)")
        var ride = activities[0]
        ride.name = "Renamed from the demo"
        _ = try await intervals.activities.get(id: ride.id)
        _ = try await intervals.activities.save(ride)
        let rereadRide = try await intervals.client.send(IntervalsEndpoints.activity(id: ride.id))
        print("  PUT /activity/\(ride.id) → the stored copy was invalidated; re-read from the \(rereadRide.metrics.cacheStatus): \"\(rereadRide.value.name)\"")
        report.set("cache", "list_server_calls_for_two_reads", listGets)
        report.set("cache", "revalidated_304", stale.metrics.cacheStatus == .revalidated ? 1 : 0)
        report.set("cache", "invalidated_by_write", rereadRide.metrics.cacheStatus == .network && rereadRide.value.name == ride.name ? 1 : 0)
        report.set("cache", "wellness_day_written", reread?.weight == 70.4 ? 1 : 0)
        report.set("cache", "wellness_days", week.count)
    }

    private func showClarity(_ clarity: ClarityClient, user: ClarityUserInfo) async throws {
        print("\n── CLARITY (its backend's published document): PAT analysis and insights, immutable once finished")
        let steps = (0..<2_880).map { minute in (minute % 1_440) < 420 ? 0 : 30 + (minute * 17) % 70 }
        let analysis = try await clarity.analyzeSteps(.minutely(steps, from: Date(timeIntervalSince1970: 1_795_000_000)))
        _ = try await clarity.analysis(id: analysis.analysisId)
        _ = try await clarity.analysis(id: analysis.analysisId)
        let gets = await server.requestCount(method: "GET", path: "/api/v1/pat/analysis/\(analysis.analysisId)")
        if let results = analysis.analysis {
            print("  \(analysis.analysisId): sleep \(results.totalSleepTime) h at \(results.sleepEfficiency)% efficiency, rhythm \(results.circadianRhythmScore); read twice → \(gets) server call")
        }
        for type in ["comprehensive", "sleep", "activity"] {
            _ = try await clarity.generateInsight(.fromAnalysis(id: analysis.analysisId, insightType: type))
        }
        var pages = 0
        var insights = 0
        for try await page in clarity.insightHistory(userId: user.userId, pageSize: 2) {
            pages += 1
            insights += page.insights.count
        }
        print("  3 insights generated (POST /api/v1/insights/); history read in \(pages) pages of 2 → \(insights) insights, newest first")
        report.set("clarity", "analysis_server_calls_for_two_reads", gets)
        report.set("clarity", "insights", insights)
        report.set("clarity", "history_pages", pages)
    }

    @MainActor
    private func showStaleWhileRevalidate(_ radar: RadarClient, clock: ManualClock) async throws {
        print("\n── Stale-while-revalidate: the radar list shows the cache first, then the network")
        let service = RadarService(radar: radar)
        await service.load()
        let elsewhere = try await otherRadar.create(topic: "Made in another tab: will it show up?")
        clock.advance(by: .seconds(60))
        let snapshots = service.snapshots()
        let loading = Task { await service.load() }
        var shown: [(source: CacheStatus?, count: Int)] = []
        for await snapshot in snapshots {
            if !snapshot.radars.isEmpty, snapshot.isLoading, let source = snapshot.source, source != .network || !shown.isEmpty {
                shown.append((source, snapshot.radars.count))
            }
            if !snapshot.isLoading, !shown.isEmpty { break }
        }
        await loading.value
        for (source, count) in shown { print("  shown: \(count) radars from \(source.map { "\($0)" } ?? "-")") }
        report.set("stale_while_revalidate", "snapshots_shown", shown.count)
        report.set("stale_while_revalidate", "stale_radars", shown.first?.count ?? 0)
        report.set("stale_while_revalidate", "fresh_radars", shown.last?.count ?? 0)
        try await otherRadar.delete(id: elsewhere.id)
    }

    private func showDedup() async throws {
        print("\n── Dedup: identical GETs in flight share one request")
        await server.resetCounters()
        let client = APIClient(baseURL: baseURL, transport: transport)
        let succeeded = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<100 {
                group.addTask { (try? await client.send(Request<Data>(path: "/debug/slow?ms=200"))) != nil }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        let calls = await server.requestCount(method: "GET", path: "/debug/slow")
        print("  100 concurrent identical GETs → \(calls) server call, \(succeeded) answers")
        report.set("dedup", "concurrent_requests", 100)
        report.set("dedup", "server_calls", calls)
        report.set("dedup", "succeeded", succeeded)
    }
}
