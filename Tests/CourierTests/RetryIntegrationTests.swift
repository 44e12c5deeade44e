import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import RadarAPI
import RadarCore
import ReferenceServer
import Testing

@Suite("Retry against the reference server's faults")
struct RetryIntegrationTests {
    /// Runs `body` with a signed Radar client whose retries wait on a manual clock.
    private func withRetryingRadar(
        policy: RetryPolicy = .default,
        budget: RetryBudget.Configuration = .unlimited,
        _ body: (ReferenceServer, RadarClient, ManualClock) async throws -> Void
    ) async throws {
        try await withRunningServer { server, url in
            let clock = ManualClock()
            let transport = AsyncHTTPClientTransport()
            var configuration = ClientConfiguration(baseURL: url, retryPolicy: policy, retryBudget: budget, clock: clock)
            configuration.middleware.append(BearerTokenMiddleware(token: try await demoToken(server)))
            let radar = RadarClient(client: APIClient(configuration: configuration, transport: transport))
            do {
                try await body(server, radar, clock)
                try await transport.shutdown()
            } catch {
                try? await transport.shutdown()
                throw error
            }
        }
    }

    @Test func a503BurstIsRiddenOutWithTheExpectedAttemptCount() async throws {
        try await withRetryingRadar { server, radar, clock in
            server.faults.inject(.status(503), count: 2, method: "GET", path: "/api/radars")
            let page = try await radar.list()
            #expect(page.items.count == 3)
            #expect(await server.requestCount(method: "GET", path: "/api/radars") == 3)
            #expect(clock.sleeps.count == 2)
        }
    }

    @Test func aPostWithoutAKeyIsNotRetriedAndOneWithAKeyIsAppliedOnce() async throws {
        try await withRetryingRadar { server, radar, _ in
            let before = try await radar.list(limit: 100).total ?? 0
            server.faults.inject(.status(503), count: 1, method: "POST", path: "/api/radars")
            let error = await courierError { _ = try await radar.create(topic: "no key") }
            #expect(error?.code == .serverError)
            #expect(await server.requestCount(method: "POST", path: "/api/radars") == 1)

            await server.resetCounters()
            server.faults.inject(.dropConnection, count: 1, method: "POST", path: "/api/radars")
            server.faults.inject(.status(502), count: 1, method: "POST", path: "/api/radars")
            var keyed = RadarEndpoints.create(topic: "with a key")
            keyed.options.idempotencyKey = UUID().uuidString
            let created = try await radar.client.value(for: keyed)
            #expect(created.topic == "with a key")
            #expect(await server.requestCount(method: "POST", path: "/api/radars") == 3)
            #expect(try await radar.list(limit: 100).total == before + 1)
        }
    }

    @Test func retryAfterIsRespected() async throws {
        try await withRetryingRadar { server, radar, clock in
            server.faults.inject(.rateLimited(retryAfter: "2"), count: 1, method: "GET", path: "/api/radars")
            _ = try await radar.list()
            #expect(clock.sleeps == [.seconds(2)])
            #expect(await server.requestCount(method: "GET", path: "/api/radars") == 2)
        }
    }

    @Test func theBudgetStopsAStormCountedOnTheServer() async throws {
        let policy = RetryPolicy(maxAttempts: 5, backoff: .none)
        try await withRetryingRadar(policy: policy, budget: .init(ratio: 0.2, minimumRetries: 3)) { server, radar, _ in
            server.faults.inject(.status(503), count: 1_000, method: "GET", path: "/api/radars")
            var failures = 0
            for _ in 0..<20 {
                if await courierError({ _ = try await radar.list() }) != nil { failures += 1 }
            }
            #expect(failures == 20)
            // 20 first attempts; retries limited to max(3, 20% of 20) = 4, not 20 × 4 = 80.
            #expect(await server.requestCount(method: "GET", path: "/api/radars") == 24)
        }
    }

    @Test func theDeadlineStopsRetrying() async throws {
        let policy = RetryPolicy(maxAttempts: 10, backoff: Backoff(.constant(.milliseconds(900)), jitter: .none))
        try await withRetryingRadar(policy: policy) { server, radar, _ in
            server.faults.inject(.status(503), count: 100, method: "GET", path: "/api/radars")
            var request = RadarEndpoints.list()
            request.options.deadline = .seconds(2)
            let error = await courierError { _ = try await radar.client.send(request) }
            #expect(error?.retryStopReason == .deadlineWouldPass)
            #expect(await server.requestCount(method: "GET", path: "/api/radars") == 3)
        }
    }

    @Test func aDroppedConnectionIsRetriedForAGet() async throws {
        try await withRetryingRadar { server, radar, _ in
            server.faults.inject(.dropConnection, count: 1, method: "GET", path: "/api/radars")
            _ = try await radar.list()
            #expect(await server.requestCount(method: "GET", path: "/api/radars") == 2)
        }
    }
}
