import Courier
import CourierAsyncHTTPClient
import CourierTesting
import CourierWebSocket
import Foundation
import Testing

@Suite("Server-Sent Events from a hostile server")
struct ServerSentEventLimitsTests {
    /// A client on a fresh transport; the caller shuts the transport down.
    private func makeClient(_ url: URL) -> (APIClient, AsyncHTTPClientTransport) {
        let transport = AsyncHTTPClientTransport()
        return (APIClient(configuration: ClientConfiguration(baseURL: url), transport: transport), transport)
    }

    /// Reads events until `count` have come or the stream ends, then stops reading (which
    /// cancels the source's task).
    private func firstEvents(_ count: Int, of source: ServerSentEventSource) async -> (events: [ServerSentEvent], error: (any Error)?) {
        var received: [ServerSentEvent] = []
        do {
            for try await event in source.events() {
                received.append(event)
                if received.count == count { break }
            }
            return (received, nil)
        } catch {
            return (received, error)
        }
    }

    @Test func aLineThatNeverEndsEndsTheStreamAsTooLargeAndIsNotReconnected() async throws {
        // 256 KiB and no line ending: without a limit the client would hold all of it.
        let endless = "data: " + String(repeating: "x", count: 256 << 10)
        try await EventStreamTestServer.withRunning(streamBody: endless) { server, url in
            let (client, transport) = makeClient(url)
            // Bounded attempts, so a source that wrongly reconnected would end instead of spinning.
            let configuration = ServerSentEventSource.Configuration(
                maxReconnectAttempts: 2,
                limits: ServerSentEventLimits(maxLineBytes: 4_096)
            )
            let source = ServerSentEventSource(client: client, path: "/events", configuration: configuration, clock: ManualClock())
            let (events, error) = await firstEvents(1, of: source)
            try await transport.shutdown()
            #expect(events.isEmpty)
            #expect((error as? CourierError)?.code == .responseTooLarge)
            #expect(source.connectionCount == 1)
            #expect(server.requestCount == 1, "a stream over the limits is not reconnected")
        }
    }

    @Test func anEventThatKeepsGrowingEndsTheStreamAsTooLarge() async throws {
        // Short lines, one event that never dispatches: 4,000 × 101 bytes of data.
        let growing = String(repeating: "data: " + String(repeating: "y", count: 100) + "\n", count: 4_000)
        try await EventStreamTestServer.withRunning(streamBody: growing) { server, url in
            let (client, transport) = makeClient(url)
            let configuration = ServerSentEventSource.Configuration(
                maxReconnectAttempts: 2,
                limits: ServerSentEventLimits(maxEventBytes: 64 << 10)
            )
            let source = ServerSentEventSource(client: client, path: "/events", configuration: configuration, clock: ManualClock())
            let (events, error) = await firstEvents(1, of: source)
            try await transport.shutdown()
            #expect(events.isEmpty)
            #expect((error as? CourierError)?.code == .responseTooLarge)
            #expect(server.requestCount == 1)
        }
    }

    @Test func anAbsurdRetryMakesTheSourceWaitNoLongerThanTheMaximum() async throws {
        // Forty digits: more than an Int64 holds.
        let absurd = String(repeating: "9", count: 40)
        try await EventStreamTestServer.withRunning(streamBody: "retry: \(absurd)\ndata: hello\n\n") { server, url in
            let (client, transport) = makeClient(url)
            // Sleeps return at once and are recorded: the second event proves the wait is over.
            let clock = ManualClock()
            let configuration = ServerSentEventSource.Configuration(limits: ServerSentEventLimits(maxRetry: .seconds(90)))
            let source = ServerSentEventSource(client: client, path: "/events", configuration: configuration, clock: clock)
            let (events, error) = await firstEvents(2, of: source)
            try await transport.shutdown()
            #expect(error == nil)
            #expect(events.map(\.data) == ["hello", "hello"])
            #expect(events.first?.retry == .seconds(90))
            #expect(clock.sleeps.first == .seconds(90), "the reconnect waited the clamped time")
            #expect(server.requestCount >= 2)
        }
    }
}
