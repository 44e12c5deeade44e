import Courier
import Foundation
import RadarAPI
import ReferenceServer

/// The resilience part of the demo: faults injected into the server, and what Courier does.
struct DemoResilience {
    let server: ReferenceServer
    let radar: RadarClient
    let report: DemoReport

    func run() async throws {
        print("\n── Retry: a burst of 503s is ridden out")
        await server.resetCounters()
        server.faults.inject(.status(503), count: 2, method: "GET", path: "/api/radars")
        let burst = try await radar.client.send(RadarEndpoints.list())
        let burstSeen = await server.requestCount(method: "GET", path: "/api/radars")
        print("  2 × 503 injected → \(burst.status.code) after \(burst.metrics.attempts) attempts in \(Self.ms(burst.metrics.duration)) ms (the server saw \(burstSeen))")
        report.set("retry", "injected_503", 2)
        report.set("retry", "attempts", burst.metrics.attempts)
        report.set("retry", "server_requests", burstSeen)

        print("\n── Retry-After: a 429 says wait 1 s")
        server.faults.inject(.rateLimited(retryAfter: "1"), count: 1, method: "GET", path: "/api/radars")
        let limited = try await radar.client.send(RadarEndpoints.list())
        print("  429 with Retry-After: 1 → \(limited.status.code) after \(limited.metrics.attempts) attempts in \(Self.ms(limited.metrics.duration)) ms")
        report.set("rate_limit", "attempts", limited.metrics.attempts)
        report.set("rate_limit", "waited_at_least_retry_after", limited.metrics.duration >= .seconds(1) ? 1 : 0)

        print("\n── Idempotency: a POST with a key survives a dropped connection, applied once")
        await server.resetCounters()
        let before = try await radar.list(limit: 100).total ?? 0
        server.faults.inject(.dropConnection, count: 1, method: "POST", path: "/api/radars")
        var create = RadarEndpoints.create(topic: "Will the connection drop?")
        create.options.idempotencyKey = UUID().uuidString
        let created = try await radar.client.send(create)
        let after = try await radar.list(limit: 100).total ?? 0
        let posts = await server.requestCount(method: "POST", path: "/api/radars")
        print("  connection dropped once → created \(created.value.id) after \(created.metrics.attempts) attempts; the server saw \(posts) POSTs and holds \(after - before) new radar")
        report.set("idempotency", "post_attempts", posts)
        report.set("idempotency", "radars_created", after - before)
        try await radar.delete(id: created.value.id)

        print("\n── Auth: 200 concurrent requests meet an expired token")
        await server.expireAccessTokens()
        await server.resetCounters()
        let started = ContinuousClock.now
        // Each request is its own call (dedup off), so all 200 really meet the expired token.
        var list = RadarEndpoints.list(limit: 1)
        list.options.deduplicates = false
        let succeeded = await withTaskGroup(of: Bool.self) { [list] group in
            for _ in 0..<200 { group.addTask { (try? await radar.client.send(list)) != nil } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        let refreshes = await server.requestCount(method: "POST", path: "/api/v1/auth/refresh")
        let gets = await server.requestCount(method: "GET", path: "/api/radars")
        print("  200 requests → \(succeeded) succeeded, \(gets) GETs and \(refreshes) refresh call(s) on the server, in \(Self.ms(ContinuousClock.now - started)) ms")
        report.set("auth", "server_gets", gets)
        report.set("auth", "concurrent_requests", 200)
        report.set("auth", "refresh_calls", refreshes)
        report.set("auth", "succeeded", succeeded)
    }

    static func ms(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
