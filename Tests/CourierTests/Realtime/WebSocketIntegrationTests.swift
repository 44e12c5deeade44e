import Synchronization
import ClarityAPI
import Courier
import CourierAsyncHTTPClient
import CourierWebSocket
import Foundation
import ReferenceServer
import Testing

@Suite("WebSocket connection against the reference server")
struct WebSocketIntegrationTests {
    private let quickReconnect = ReconnectPolicy(backoff: Backoff(.constant(.milliseconds(10)), maxDelay: .milliseconds(10), jitter: .none))

    private func echoConnection(
        _ url: URL,
        heartbeat: Duration? = nil,
        reconnect: ReconnectPolicy? = nil,
        onOpen: WebSocketConnection.OpenHook? = nil
    ) -> WebSocketConnection {
        let configuration = WebSocketConfiguration(
            url: webSocketURL(url, "/debug/ws/echo"),
            reconnect: reconnect ?? quickReconnect,
            heartbeat: heartbeat
        )
        return WebSocketConnection(configuration: configuration, onOpen: onOpen)
    }

    /// Sends a message and waits for its echo: the server's session is then running.
    ///
    /// With `tries` above one, a marker whose echo does not come within `wait` is followed by
    /// another: a connection with a heartbeat may be declared dead on a loaded machine and
    /// reconnected, and a message in flight on the dropped link is lost (at most once).
    private static func roundTrip(_ connection: WebSocketConnection, tries: Int = 1, wait: Duration = .seconds(20)) async throws {
        var received: [WebSocketMessage] = []
        for _ in 0..<max(1, tries) {
            let marker = "marker-\(UUID().uuidString)"
            do {
                try await connection.send(text: marker)
            } catch let error as CourierError where error.code == .connectionLost {
                // A machine too busy to answer a ping in time gets its connection declared
                // dead (as it should): try again once it has reconnected.
                for await state in connection.stateChanges() where state == .connected { break }
                continue
            }
            while received.count < 10, let message = await nextMessage(connection, timeout: wait) {
                received.append(message)
                if message == .text(marker) { return }
            }
        }
        Issue.record("no echo of any of \(tries) markers; received \(received)")
    }

    @Test(arguments: [true, false])
    func permessageDeflateIsOfferedByDefaultAndLargeMessagesRoundTrip(compressed: Bool) async throws {
        try await withRunningServer { _, url in
            var configuration = WebSocketConfiguration(url: webSocketURL(url, "/debug/ws/echo"), reconnect: quickReconnect, heartbeat: nil)
            if !compressed { configuration.compression = nil }
            let connection = WebSocketConnection(configuration: configuration)
            connection.connect()
            try await connection.send(text: "?extensions")
            let offered = await nextMessage(connection)
            if compressed {
                #expect(offered.map { "\($0)" }?.contains("permessage-deflate") == true, "\(String(describing: offered))")
            } else {
                #expect(offered == .text("extensions: "))
            }
            // JSON-like text, compressible, larger than a frame; then binary that is not.
            let text = String(repeating: #"{"id":1,"title":"Radar","state":"open"},"#, count: 40_000)
            try await connection.send(text: text)
            #expect(await nextMessage(connection) == .text(text))
            var generator = SystemRandomNumberGenerator()
            let noise = Data((0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
            try await connection.send(.binary(noise))
            #expect(await nextMessage(connection) == .binary(noise))
            await connection.close()
        }
    }

    @Test func echoesTextAndBinaryAndAMessageLargerThanAFrame() async throws {
        try await withRunningServer { _, url in
            let connection = echoConnection(url)
            connection.connect()
            try await connection.send(text: "hello")
            #expect(await nextMessage(connection) == .text("hello"))
            try await connection.send(.binary(Data([0, 1, 2, 255])))
            #expect(await nextMessage(connection) == .binary(Data([0, 1, 2, 255])))
            let large = String(repeating: "0123456789abcdef", count: 196_608)  // 3 MiB: three 1 MiB frames
            try await connection.send(text: large)
            #expect(await nextMessage(connection) == .text(large))
            await connection.close()
            #expect(connection.state == .closed(code: .normalClosure, reason: ""))
        }
    }

    @Test func aServerThatStopsAnsweringPingsIsDeclaredDeadAndReconnected() async throws {
        try await withRunningServer { server, url in
            server.realtime.stopAnsweringPings(connections: 1)
            // Generous enough that a healthy but busy test machine answers in time.
            let connection = echoConnection(url, heartbeat: .seconds(1))
            var changes = connection.stateChanges().makeAsyncIterator()
            connection.connect()
            var seen: [WebSocketState] = []
            while seen.filter({ $0 == .connected }).count < 2, let state = await changes.next() { seen.append(state) }
            #expect(Array(seen.prefix(5)) == [.idle, .connecting, .connected, .reconnecting(attempt: 1, delay: .milliseconds(10)), .connecting])
            try await Self.roundTrip(connection, tries: 3, wait: .seconds(5))
            #expect(server.realtime.acceptedWebSocketCount >= 2)
            await connection.close()
        }
    }

    @Test func afterADropItReconnectsAndTheOpenHookResubscribes() async throws {
        try await withRunningServer { server, url in
            let opens = OpenLog()
            let connection = echoConnection(url) { open in
                opens.record(open.isReconnect)
                try await open.send(.text("subscribe #\(open.openCount)"))
            }
            connection.connect()
            #expect(await nextMessage(connection) == .text("subscribe #1"))
            #expect(server.realtime.dropConnections() == 1)
            #expect(await nextMessage(connection) == .text("subscribe #2"))
            #expect(opens.values == [false, true])
            #expect(server.realtime.acceptedWebSocketCount == 2)
            await connection.close()
        }
    }

    @Test func noReconnectAfterAFinalCloseCodeOrANormalClose() async throws {
        try await withRunningServer { server, url in
            var policy = quickReconnect
            policy.finalCloseCodes = [WebSocketCloseCode(4001)]
            let banned = echoConnection(url, reconnect: policy)
            banned.connect()
            try await Self.roundTrip(banned)
            server.realtime.closeWebSockets(code: 4001, reason: "banned")
            let seen = await states(of: banned, until: { $0.isClosed })
            #expect(seen.last == .closed(code: WebSocketCloseCode(4001), reason: "banned"))
            #expect(server.realtime.acceptedWebSocketCount == 1)

            let normal = echoConnection(url, reconnect: policy)
            normal.connect()
            try await Self.roundTrip(normal)
            server.realtime.closeWebSockets(code: 1000, reason: "done")
            #expect(await states(of: normal, until: { $0.isClosed }).last == .closed(code: .normalClosure, reason: "done"))
            #expect(server.realtime.acceptedWebSocketCount == 2)
        }
    }

    @Test func anApplicationCodeNotMarkedFinalIsReconnected() async throws {
        try await withRunningServer { server, url in
            let connection = echoConnection(url)
            let changes = connection.stateChanges()
            connection.connect()
            try await Self.roundTrip(connection)
            server.realtime.closeWebSockets(code: 4002, reason: "try again")
            var seen: [WebSocketState] = []
            for await state in changes {
                seen.append(state)
                if seen.count == 6 { break }
            }
            #expect(seen == [.idle, .connecting, .connected, .reconnecting(attempt: 1, delay: .milliseconds(10)), .connecting, .connected])
            try await Self.roundTrip(connection)
            #expect(server.realtime.acceptedWebSocketCount == 2)
            await connection.close()
        }
    }

    @Test func theHandshakeCarriesTheCredentialAndA401RenewsItOnce() async throws {
        try await withRunningServer { server, url in
            try await withTransport(AsyncHTTPClientTransport()) { transport in
                let demo = ReferenceServerConfiguration()
                let clarity = ClarityClient(baseURL: url, transport: transport)
                try await clarity.signIn(email: demo.demoEmail, password: demo.demoPassword)
                await server.expireAccessTokens()
                await server.resetCounters()
                let configuration = WebSocketConfiguration(url: webSocketURL(url, "/api/ws/radar/r_1"), reconnect: quickReconnect, heartbeat: nil)
                let connection = WebSocketConnection(
                    configuration: configuration,
                    engine: WSClientEngine(handshakeStatusProbe: transport),
                    auth: clarity.session
                )
                connection.connect()
                #expect(await states(of: connection, until: { $0 == .connected || $0.isClosed }).last == .connected)
                guard case .text(let first)? = await nextMessage(connection) else {
                    Issue.record("no snapshot after connecting")
                    return
                }
                #expect(first.contains(#""type":"refresh""#))
                #expect(await server.requestCount(method: "POST", path: "/api/v1/auth/refresh") == 1)
                await connection.close()
            }
        }
    }

    @Test func aHandshakeWithoutACredentialIsRefusedAndNotRetried() async throws {
        try await withRunningServer { server, url in
            try await withTransport(AsyncHTTPClientTransport()) { transport in
                let configuration = WebSocketConfiguration(url: webSocketURL(url, "/api/ws/radar/r_1"), reconnect: quickReconnect, heartbeat: nil)
                let connection = WebSocketConnection(configuration: configuration, engine: WSClientEngine(handshakeStatusProbe: transport))
                connection.connect()
                let last = await states(of: connection, until: { $0.isClosed }).last
                #expect(last == .closed(code: .policyViolation, reason: "the server refused the credential"))
                #expect(server.realtime.acceptedWebSocketCount == 0)
            }
        }
    }
}

/// Records what the open hook saw.
final class OpenLog: Sendable {
    private let log = Mutex<[Bool]>([])
    func record(_ isReconnect: Bool) { log.withLock { $0.append(isReconnect) } }
    var values: [Bool] { log.withLock { $0 } }
}
