import Foundation
import RadarCore
import ReferenceServer
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The reference server, started in-process on an ephemeral loopback port and checked over real HTTP.
@Suite("Reference server")
struct ReferenceServerTests {
    @Test("start returns a 127.0.0.1 URL with the port actually bound")
    func startReturnsALoopbackURLWithTheBoundPort() async throws {
        try await withRunningServer { server, baseURL in
            #expect(baseURL.scheme == "http")
            #expect(baseURL.host == "127.0.0.1")
            let port = try #require(baseURL.port)
            #expect(port > 0)
            #expect(server.baseURL == baseURL)
        }
    }

    @Test("/debug/ping answers 200 with {\"ok\": true}")
    func pingAnswersOK() async throws {
        try await withRunningServer { _, baseURL in
            let (data, response) = try await Self.get(baseURL.appending(path: "debug/ping"))
            #expect(response.statusCode == 200)
            #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
            let body = try JSONDecoder().decode([String: Bool].self, from: data)
            #expect(body == ["ok": true])
        }
    }

    @Test("an /api route without a token is 401 with a JSON error and WWW-Authenticate")
    func apiRouteWithoutTokenIsUnauthorized() async throws {
        try await withRunningServer { _, baseURL in
            let (data, response) = try await Self.get(baseURL.appending(path: "api/radars"))
            #expect(response.statusCode == 401)
            #expect(response.value(forHTTPHeaderField: "WWW-Authenticate") == "Bearer")
            let error = try JSONDecoder().decode(APIErrorBody.self, from: data)
            #expect(error.code == "unauthorized")
            #expect(!error.message.isEmpty)
        }
    }

    @Test("an /api route with a demo account's access token lists the three seeded radars")
    func apiRouteWithTokenListsSeededRadars() async throws {
        try await withRunningServer { server, baseURL in
            let tokens = try await server.issueTokens(email: ReferenceServerConfiguration().demoEmail)
            #expect(tokens.user.id == "demo-user")
            let (data, response) = try await Self.get(
                baseURL.appending(path: "api/radars"),
                headers: ["Authorization": "Bearer \(tokens.accessToken)"]
            )
            #expect(response.statusCode == 200)
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            let page = try decoder.decode([Radar].self, from: data)
            #expect(response.value(forHTTPHeaderField: "X-Total-Count") == "3")
            #expect(page.count == 3)
            #expect(page.allSatisfy { $0.userId == "demo-user" && $0.opinions.count >= 3 })
        }
    }

    @Test("stop closes the port, clears baseURL and can be called twice")
    func stopClosesThePort() async throws {
        let server = ReferenceServer(configuration: .forTests())
        let baseURL = try await server.start()
        let (_, response) = try await Self.get(baseURL.appending(path: "debug/ping"))
        #expect(response.statusCode == 200)

        await server.stop()
        await server.stop()

        #expect(server.baseURL == nil)
        await #expect(throws: (any Error).self) {
            _ = try await Self.get(baseURL.appending(path: "debug/ping"))
        }
    }

    // MARK: - Helpers

    /// Starts a server, runs `body` with it and its base URL, and stops it whatever happens.
    private func withRunningServer(
        _ body: (ReferenceServer, URL) async throws -> Void
    ) async throws {
        let server = ReferenceServer(configuration: .forTests())
        let baseURL = try await server.start()
        do {
            try await body(server, baseURL)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// A GET on a fresh ephemeral session, so no pooled connection outlives a stopped server.
    private static func get(
        _ url: URL,
        headers: [String: String] = [:]
    ) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: url, timeoutInterval: 5)
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        guard let httpResponse = response as? HTTPURLResponse else {
            throw URLError(.badServerResponse)
        }
        return (data, httpResponse)
    }
}
