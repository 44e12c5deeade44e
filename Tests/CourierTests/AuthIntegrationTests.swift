import ClarityAPI
import Courier
import CourierTesting
import CourierAsyncHTTPClient
import Foundation
import RadarAPI
import ReferenceServer
import Testing

@Suite("Authentication against the reference server")
struct AuthIntegrationTests {
    let demo = ReferenceServerConfiguration()

    private func withClarity(
        store: any CredentialStore = InMemoryCredentialStore(),
        clock: any CourierClock = SystemClock(),
        _ body: (ReferenceServer, ClarityClient) async throws -> Void
    ) async throws {
        try await withRunningServer { server, url in
            // AsyncHTTPClient bounds a request's wait for a pooled connection by the connect
            // timeout: 200 calls over 16 connections can wait longer than the default 10 s on
            // a loaded machine or under the thread sanitizer, and fail as .timedOut.
            let transport = AsyncHTTPClientTransport(configuration: .init(connectionsPerHost: 16, connectTimeout: .seconds(600)))
            let clarity = ClarityClient(baseURL: url, transport: transport, store: store) { $0.clock = clock }
            do {
                try await body(server, clarity)
                try await transport.shutdown()
            } catch {
                try? await transport.shutdown()
                throw error
            }
        }
    }

    @Test func twoHundredConcurrentRequestsWithAnExpiredTokenCauseExactlyOneRefresh() async throws {
        try await withClarity { server, clarity in
            try await clarity.signIn(email: demo.demoEmail, password: demo.demoPassword)
            await server.expireAccessTokens()
            await server.resetCounters()
            // Each request is its own call (dedup off), so all 200 really meet the expired token.
            let radar = radarClient(sharing: clarity)
            var list = RadarEndpoints.list(limit: 1)
            list.options.deduplicates = false
            // What is pinned here is one refresh for all, not speed: on a loaded machine (or
            // under the thread sanitizer) 200 calls over 16 connections can outlast the default
            // per-attempt timeout, which would end some in .timedOut and prove nothing.
            list.options.timeout = .seconds(600)
            let failures = await withTaskGroup(of: String?.self) { [list] group in
                for _ in 0..<200 {
                    group.addTask {
                        do {
                            _ = try await radar.client.send(list)
                            return nil
                        } catch {
                            return (error as? CourierError).map { "\($0.code): \($0.message)" } ?? "\(error)"
                        }
                    }
                }
                return await group.reduce(into: [String: Int]()) { tally, failure in
                    if let failure { tally[failure, default: 0] += 1 }
                }
            }
            #expect(failures.isEmpty, "\(failures.values.reduce(0, +)) of 200 failed: \(failures)")
            #expect(await server.requestCount(method: "POST", path: "/api/v1/auth/refresh") == 1)
            #expect(await server.requestCount(method: "GET", path: "/api/radars") >= 200, "every request reached the server")
        }
    }

    @Test func aRefusedRefreshFailsEveryRequestAsUnauthorizedAndIsNotTriedAgain() async throws {
        try await withClarity { server, clarity in
            try await clarity.signIn(email: demo.demoEmail, password: demo.demoPassword)
            await server.expireAccessTokens()
            await server.revokeRefreshTokens()
            await server.resetCounters()
            let radar = radarClient(sharing: clarity)
            var list = RadarEndpoints.list()
            list.options.deduplicates = false
            let codes = await withTaskGroup(of: CourierError.Code?.self) { [list] group in
                for _ in 0..<50 { group.addTask { await courierError { _ = try await radar.client.send(list) }?.code } }
                return await group.reduce(into: [CourierError.Code?]()) { $0.append($1) }
            }
            #expect(codes.count == 50)
            #expect(codes.allSatisfy { $0 == .unauthorized })
            #expect(await server.requestCount(method: "POST", path: "/api/v1/auth/refresh") == 1)

            let later = await courierError { _ = try await radar.list() }
            #expect(later?.code == .unauthorized)
            #expect(await server.requestCount(method: "POST", path: "/api/v1/auth/refresh") == 1, "no loop of refreshes")

            try await clarity.signIn(email: demo.demoEmail, password: demo.demoPassword)
            #expect(try await radar.list().items.count == 3, "signing in again ends the failed state")
        }
    }

    @Test func aTokenAboutToExpireIsRefreshedBeforeTheRequest() async throws {
        let clock = ManualClock()
        try await withClarity(clock: clock) { server, clarity in
            await server.setAccessTokenLifetime(.seconds(30))
            try await clarity.signIn(email: demo.demoEmail, password: demo.demoPassword)
            await server.resetCounters()
            let radar = radarClient(sharing: clarity)
            _ = try await radar.list()
            #expect(await server.requestCount(method: "POST", path: "/api/v1/auth/refresh") == 0, "30 s left: not yet")
            clock.advance(by: .seconds(20))
            _ = try await radar.list()
            #expect(await server.requestCount(method: "POST", path: "/api/v1/auth/refresh") == 1)
            #expect(await server.requestCount(method: "GET", path: "/api/radars") == 2, "no 401 round trip")
        }
    }

    @Test func theRefreshedCredentialIsStoredAndSignOutClearsIt() async throws {
        let store = InMemoryCredentialStore()
        try await withClarity(store: store) { server, clarity in
            try await clarity.signIn(email: demo.demoEmail, password: demo.demoPassword)
            let first = try #require(try await store.load())
            await server.expireAccessTokens()
            _ = try await clarity.currentUser()
            let second = try #require(try await store.load())
            #expect(second.accessToken != first.accessToken)
            #expect(second.refreshToken != first.refreshToken, "refresh tokens rotate")
            try await clarity.signOut()
            #expect(try await store.load() == nil)
            let error = await courierError { _ = try await clarity.currentUser() }
            #expect(error?.code == .unauthorized)
        }
    }

    @Test func wrongPasswordIsUnauthorizedWithTheServersMessage() async throws {
        try await withClarity { _, clarity in
            let error = await courierError { try await clarity.signIn(email: demo.demoEmail, password: "wrong-password") }
            #expect(error?.code == .unauthorized)
            #expect(error?.serverCode == "invalid_credentials")
        }
    }
}
