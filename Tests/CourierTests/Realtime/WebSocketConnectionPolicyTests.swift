import Synchronization
import Courier
import CourierTesting
import CourierWebSocket
import Foundation
import Testing

@Suite("WebSocket connection policy (scripted engine, manual clock)")
struct WebSocketConnectionPolicyTests {
    private let url = URL(string: "ws://127.0.0.1:1/ws")!
    private let backoff = Backoff(.exponential(base: .milliseconds(100), multiplier: 2), maxDelay: .seconds(5), jitter: .none)

    private func waitUntil(_ connection: WebSocketConnection, _ predicate: @escaping (WebSocketState) -> Bool) async -> [WebSocketState] {
        var seen: [WebSocketState] = []
        for await state in connection.stateChanges() {
            seen.append(state)
            if predicate(state) { break }
        }
        return seen
    }

    @Test func reconnectWaitsFollowTheBackoffOnTheInjectedClock() async throws {
        let engine = ScriptedWebSocketEngine([
            .open(deliver: [], end: .lost),
            .cannotConnect,
            .cannotConnect,
            .open(deliver: [], end: .whenClosed),
        ])
        let clock = ManualClock()
        let configuration = WebSocketConfiguration(url: url, reconnect: ReconnectPolicy(backoff: backoff), heartbeat: nil)
        let connection = WebSocketConnection(configuration: configuration, engine: engine, clock: clock)
        let states = connection.stateChanges()
        connection.connect()
        #expect(await engine.delivered(2))
        _ = await waitUntil(connection) { $0 == .connected }
        #expect(clock.sleeps == [.milliseconds(100), .milliseconds(200), .milliseconds(400)])
        #expect(connection.openCount == 2)
        await connection.close()
        var seen: [WebSocketState] = []
        for await state in states { seen.append(state) }
        #expect(seen == [
            .idle, .connecting, .connected,
            .reconnecting(attempt: 1, delay: .milliseconds(100)), .connecting,
            .reconnecting(attempt: 2, delay: .milliseconds(200)), .connecting,
            .reconnecting(attempt: 3, delay: .milliseconds(400)), .connecting, .connected,
            .closed(code: .normalClosure, reason: ""),
        ])
    }

    @Test func messagesSentWhileDisconnectedWaitInTheBufferAndGoOutAfterTheOpenHook() async throws {
        let engine = ScriptedWebSocketEngine([.open(deliver: [], end: .whenClosed)])
        let configuration = WebSocketConfiguration(url: url, heartbeat: nil, whileDisconnected: .wait(capacity: 2))
        let hookRuns = Counter()
        let connection = WebSocketConnection(configuration: configuration, engine: engine, clock: ManualClock()) { open in
            hookRuns.increment()
            try await open.send(.text("subscribe"))
        }
        try await connection.send(text: "one")
        try await connection.send(text: "two")
        let third = Task { try await connection.send(text: "three") }
        connection.connect()
        try await third.value
        try await connection.send(text: "four")
        #expect(engine.sent == [.text("subscribe"), .text("one"), .text("two"), .text("three"), .text("four")])
        #expect(hookRuns.value == 1)
        await connection.close()
        await #expect(throws: CourierError.self) { try await connection.send(text: "late") }
    }

    @Test func withTheFailPolicyASendWhileDisconnectedThrowsOffline() async throws {
        let engine = ScriptedWebSocketEngine([])
        let configuration = WebSocketConfiguration(url: url, heartbeat: nil, whileDisconnected: .fail)
        let connection = WebSocketConnection(configuration: configuration, engine: engine, clock: ManualClock())
        let error = await #expect(throws: CourierError.self) { try await connection.send(text: "early") }
        #expect(error?.code == .offline)
        await connection.close()
    }

    @Test func aFullIncomingBufferDropsTheOldestWhenAskedTo() async throws {
        let messages = (1...5).map { WebSocketMessage.text("m\($0)") }
        let engine = ScriptedWebSocketEngine([.open(deliver: messages, end: .whenClosed)])
        let configuration = WebSocketConfiguration(url: url, heartbeat: nil, incomingCapacity: 2, incomingOverflow: .dropOldest)
        let connection = WebSocketConnection(configuration: configuration, engine: engine, clock: ManualClock())
        connection.connect()
        #expect(await engine.delivered())
        #expect(connection.droppedMessages == 3)
        await connection.close()
        var received: [WebSocketMessage] = []
        for await message in connection.messages { received.append(message) }
        #expect(received == [.text("m4"), .text("m5")])
    }

    @Test func aHandshakeRefusedWith401RenewsTheCredentialOnceAndSignsTheNextHandshakeWithIt() async throws {
        let engine = ScriptedWebSocketEngine([.refuse(status: 401), .open(deliver: [], end: .whenClosed)])
        let authenticator = CountingAuthenticator()
        let session = AuthSession(authenticator: authenticator)
        try await session.signIn(Credential(accessToken: "old", refreshToken: "r"))
        let configuration = WebSocketConfiguration(url: url, heartbeat: nil)
        let connection = WebSocketConnection(configuration: configuration, engine: engine, auth: session, clock: ManualClock())
        connection.connect()
        _ = await waitUntil(connection) { $0 == .connected || $0.isClosed }
        #expect(connection.state == .connected)
        #expect(engine.handshakes.map { $0[.authorization] } == ["Bearer old", "Bearer fresh-1"])
        #expect(authenticator.refreshes == 1)
        await connection.close()
    }

    @Test func aTLSFailureClosesWith1015AndIsNeverRetried() async throws {
        let pinMismatch = CourierError(code: .tlsFailure, message: "public key pin mismatch")
        // Were it retried, the second attempt would open.
        let engine = ScriptedWebSocketEngine([.fail(pinMismatch), .open(deliver: [], end: .whenClosed)])
        let clock = ManualClock()
        let configuration = WebSocketConfiguration(url: url, reconnect: ReconnectPolicy(backoff: backoff), heartbeat: nil)
        let connection = WebSocketConnection(configuration: configuration, engine: engine, clock: clock)
        let states = connection.stateChanges()
        connection.connect()
        var seen: [WebSocketState] = []
        for await state in states { seen.append(state) }
        #expect(seen == [.idle, .connecting, .closed(code: .tlsHandshakeFailure, reason: "public key pin mismatch")])
        #expect(connection.terminalError?.code == .tlsFailure)
        #expect(engine.handshakes.count == 1)
        #expect(clock.sleeps.isEmpty)
        await connection.close()
    }

    @Test func aConnectionFailureOtherThanTLSIsStillRetriedAndLeavesNoTerminalError() async throws {
        let engine = ScriptedWebSocketEngine([.cannotConnect, .open(deliver: [], end: .whenClosed)])
        let configuration = WebSocketConfiguration(url: url, reconnect: ReconnectPolicy(backoff: backoff), heartbeat: nil)
        let connection = WebSocketConnection(configuration: configuration, engine: engine, clock: ManualClock())
        connection.connect()
        _ = await waitUntil(connection) { $0 == .connected || $0.isClosed }
        #expect(connection.state == .connected)
        #expect(connection.terminalError == nil)
        await connection.close()
    }

    @Test func aHandshakeRefusedWithAnotherStatusIsRetriedWithBackoffAndNoRefresh() async throws {
        let engine = ScriptedWebSocketEngine([.refuse(status: 503), .open(deliver: [], end: .whenClosed)])
        let authenticator = CountingAuthenticator()
        let session = AuthSession(authenticator: authenticator)
        try await session.signIn(Credential(accessToken: "old"))
        let clock = ManualClock()
        let configuration = WebSocketConfiguration(url: url, reconnect: ReconnectPolicy(backoff: backoff), heartbeat: nil)
        let connection = WebSocketConnection(configuration: configuration, engine: engine, auth: session, clock: clock)
        connection.connect()
        _ = await waitUntil(connection) { $0 == .connected || $0.isClosed }
        #expect(connection.state == .connected)
        #expect(authenticator.refreshes == 0)
        #expect(clock.sleeps == [.milliseconds(100)])
        await connection.close()
    }
}

/// Counts how often something ran.
final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

/// An authenticator whose refresh hands out `fresh-1`, `fresh-2`, … and counts.
final class CountingAuthenticator: Authenticator {
    private let count = Mutex(0)
    var refreshes: Int { count.withLock { $0 } }

    func refresh(_ credential: Credential) async throws -> Credential {
        let number = count.withLock { count -> Int in
            count += 1
            return count
        }
        return Credential(accessToken: "fresh-\(number)", refreshToken: credential.refreshToken)
    }
}
