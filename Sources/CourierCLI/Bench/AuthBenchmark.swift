import ClarityAPI
import Courier
import CourierAsyncHTTPClient
import Foundation
import RadarAPI
import ReferenceServer

/// 1000 concurrent requests that meet an expired token: how many refreshes, how many
/// successes, how long.
struct AuthBenchmark {
    let server: ReferenceServer
    let baseURL: URL
    let concurrentRequests: Int

    func run(into results: inout BenchResults) async throws {
        let transport = AsyncHTTPClientTransport(configuration: .init(connectionsPerHost: 32))
        do {
            let demo = ReferenceServerConfiguration()
            let clarity = ClarityClient(baseURL: baseURL, transport: transport)
            try await clarity.signIn(email: demo.demoEmail, password: demo.demoPassword)
            let radar = RadarClient(client: clarity.client.rebased(to: baseURL))
            _ = try await radar.list(limit: 1)
            await server.expireAccessTokens()
            await server.resetCounters()
            let started = ContinuousClock.now
            let count = concurrentRequests
            // Each request is its own call (dedup off), so every one really meets the expired token.
            var list = RadarEndpoints.list(limit: 1)
            list.options.deduplicates = false
            let succeeded = await withTaskGroup(of: Bool.self) { [list] group in
                for _ in 0..<count { group.addTask { (try? await radar.client.send(list)) != nil } }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            let elapsed = ContinuousClock.now - started
            let refreshes = await server.requestCount(method: "POST", path: "/api/v1/auth/refresh")
            let gets = await server.requestCount(method: "GET", path: "/api/radars")
            results.set("auth.server_gets", gets)
            results.set("auth.concurrent_requests", count)
            results.set("auth.refresh_calls", refreshes)
            results.set("auth.succeeded", succeeded)
            results.set("auth.elapsed_ms", (elapsed.timeInterval * 1e4).rounded() / 10)
            print("\nauth (\(count) concurrent requests, expired token)")
            print("  refresh calls \(refreshes), succeeded \(succeeded), server GETs \(gets), elapsed \(String(format: "%.1f", elapsed.timeInterval * 1_000)) ms")
            try await transport.shutdown()
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }
}
