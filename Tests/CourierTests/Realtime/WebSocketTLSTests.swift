import Courier
import CourierAsyncHTTPClient
import CourierWebSocket
import Foundation
import ReferenceServer
import Testing

@Suite("WebSocket over TLS, with the client's TLS policy")
struct WebSocketTLSTests {
    /// Bounded, so that a connection that wrongly reconnected would end instead of spinning.
    private let quickReconnect = ReconnectPolicy(
        backoff: Backoff(.constant(.milliseconds(10)), maxDelay: .milliseconds(10), jitter: .none),
        maxReconnectAttempts: 3
    )

    /// The `wss://` URL of a path on a reference server started with TLS.
    private func secureWebSocketURL(_ base: URL, _ path: String) -> URL {
        URL(string: base.absoluteString.replacingOccurrences(of: "https://", with: "wss://") + path)!
    }

    /// A reference server speaking TLS with a certificate from `certificates`' CA.
    private func tlsServerConfiguration(_ certificates: TestCertificates) throws -> ReferenceServerConfiguration {
        var configuration = ReferenceServerConfiguration()
        configuration.tlsConfiguration = try certificates.serverTLSConfiguration()
        return configuration
    }

    /// A connection to radar r_1's live updates, signed with the demo account's token.
    private func radarConnection(_ url: URL, engine: WSClientEngine, token: String) async throws -> WebSocketConnection {
        let session = AuthSession(authenticator: CountingAuthenticator())
        try await session.signIn(Credential(accessToken: token))
        let configuration = WebSocketConfiguration(url: secureWebSocketURL(url, "/api/ws/radar/r_1"), reconnect: quickReconnect, heartbeat: nil)
        return WebSocketConnection(configuration: configuration, engine: engine, auth: session)
    }

    /// Every state from now until the connection closes for good.
    private func statesUntilClosed(_ connection: WebSocketConnection, after start: () -> Void) async -> [WebSocketState] {
        let changes = connection.stateChanges()
        start()
        var seen: [WebSocketState] = []
        for await state in changes { seen.append(state) }
        return seen
    }

    @Test func withTheRightCAAndPinAWssConnectionOpensAndReceivesUsingTheTransportsPolicy() async throws {
        let certificates = try TestCertificates.make()
        try await withRunningServer(try tlsServerConfiguration(certificates)) { server, url in
            #expect(url.scheme == "https")
            let token = try await demoToken(server)
            let tls = TLSPolicy(trustRoots: .certificates([try certificates.caDER()]), pinnedPublicKeys: [certificates.serverKeyPin])
            // No `tls:` given: the engine takes the policy of its probe transport.
            let transport = AsyncHTTPClientTransport(configuration: .init(tls: tls))
            let connection: WebSocketConnection
            do {
                connection = try await radarConnection(url, engine: WSClientEngine(handshakeStatusProbe: transport), token: token)
            } catch {
                try await transport.shutdown()
                throw error
            }
            connection.connect()
            let message = await nextMessage(connection)
            await connection.close()
            try await transport.shutdown()

            guard case .text(let first)? = message else {
                Issue.record("no snapshot over wss; state \(connection.state)")
                return
            }
            #expect(first.contains(#""type":"refresh""#))
            #expect(connection.terminalError == nil)
            #expect(server.realtime.acceptedWebSocketCount == 1)
        }
    }

    @Test func withAWrongPinTheConnectionEndsWithATLSFailureBeforeTheUpgradeIsSentAndIsNotRetried() async throws {
        let certificates = try TestCertificates.make()
        try await withRunningServer(try tlsServerConfiguration(certificates)) { server, url in
            let token = try await demoToken(server)
            await server.resetCounters()
            let tls = TLSPolicy(trustRoots: .certificates([try certificates.caDER()]), pinnedPublicKeys: [TestCertificates.unrelatedKeyPin])
            let connection = try await radarConnection(url, engine: WSClientEngine(tls: tls), token: token)
            let seen = await statesUntilClosed(connection) { connection.connect() }
            await connection.close()

            guard case .closed(let code, let reason)? = seen.last else {
                Issue.record("the connection did not close: \(seen)")
                return
            }
            #expect(code == .tlsHandshakeFailure)
            #expect(reason.contains("pin"))
            #expect(connection.terminalError?.code == .tlsFailure)
            #expect(seen == [.idle, .connecting, .closed(code: code, reason: reason)], "one attempt, no reconnect")
            #expect(connection.openCount == 0)
            // The token was valid: had the upgrade request arrived, the server would have taken it.
            #expect(server.realtime.acceptedWebSocketCount == 0, "no upgrade request reached the server")
            #expect(await server.requestCount(path: "/api/ws/radar/r_1") == 0)
        }
    }

    @Test func aServerTheTrustRootsDoNotVouchForEndsWithATLSFailureAndIsNotRetried() async throws {
        let certificates = try TestCertificates.make()
        let strangers = try TestCertificates.make()
        try await withRunningServer(try tlsServerConfiguration(certificates)) { server, url in
            let token = try await demoToken(server)
            // Trusts another CA only, and pins nothing.
            let tls = TLSPolicy(trustRoots: .certificates([try strangers.caDER()]))
            let connection = try await radarConnection(url, engine: WSClientEngine(tls: tls), token: token)
            let seen = await statesUntilClosed(connection) { connection.connect() }
            await connection.close()

            #expect(seen.count == 3, "idle, connecting, closed: \(seen)")
            guard case .closed(let code, _)? = seen.last else {
                Issue.record("the connection did not close: \(seen)")
                return
            }
            #expect(code == .tlsHandshakeFailure)
            #expect(connection.terminalError?.code == .tlsFailure)
            #expect(server.realtime.acceptedWebSocketCount == 0)
        }
    }
}
