import Courier
import CourierWebSocket
import Foundation
import RadarAPI
import RadarCore
import ReferenceServer

/// The live-updates part of the demo: a radar watched over a WebSocket while it is refreshed,
/// a forced drop and the reconnect, then the event-stream twin resuming with `Last-Event-ID`.
struct DemoLive {
    let server: ReferenceServer
    let client: APIClient
    let radarId: String
    let report: DemoReport

    func run() async throws {
        print("\n── Live updates: a WebSocket that comes back")
        let radar = RadarClient(client: client)
        let reconnect = ReconnectPolicy(backoff: .exponential(base: .milliseconds(100), maxDelay: .seconds(2)))
        let live = await RadarLiveView(radarId: radarId, client: client, reconnect: reconnect, heartbeat: .seconds(5))
        let snapshots = await live.snapshots()
        var iterator = snapshots.makeAsyncIterator()
        let transitions = Task { () -> [WebSocketState] in
            var seen: [WebSocketState] = []
            for await state in live.connection.stateChanges() { seen.append(state) }
            return seen
        }
        await live.start()

        func waitFor(_ what: String, _ predicate: (RadarLiveView.Snapshot) -> Bool) async throws -> RadarLiveView.Snapshot {
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline, let snapshot = await iterator.next() {
                if predicate(snapshot) { return snapshot }
            }
            throw CourierError(code: .timedOut, message: "the live view did not show \(what)")
        }

        let first = try await waitFor("the radar") { $0.radar != nil }
        print("  subscribed to \(radarId): \(first.radar?.opinions.count ?? 0) opinions, position \(first.radar?.position.rawValue ?? "-")")
        for _ in 1...2 {
            let refreshed = try await radar.refresh(id: radarId)
            let shown = try await waitFor("refresh #\(refreshed.refreshCount)") { $0.radar == refreshed }
            print("  refresh #\(refreshed.refreshCount) on the server → live view has \(shown.radar?.opinions.count ?? 0) opinions, position \(shown.radar?.position.rawValue ?? "-") (\(shown.appliedUpdates) updates merged)")
        }

        let dropStarted = ContinuousClock.now
        let dropped = server.realtime.dropConnections()
        print("  ✂ the server drops the socket (\(dropped) connection)")
        let missed = try await radar.refresh(id: radarId)
        let converged = try await waitFor("the refresh made during the drop") { $0.radar == missed && $0.connection == .connected }
        let reconnectMs = DemoResilience.ms(ContinuousClock.now - dropStarted)
        print("  reconnected and converged in \(reconnectMs) ms: \(converged.radar?.opinions.count ?? 0) opinions, refresh #\(missed.refreshCount) included")

        await live.stop()
        let seen = await transitions.value
        let path = seen.map { state -> String in
            if case .reconnecting(let attempt, let delay) = state { return "reconnecting(\(attempt), \(DemoResilience.ms(delay)) ms)" }
            if case .closed = state { return "closed" }
            return "\(state)"
        }
        print("  connection: " + path.joined(separator: " → "))
        let resumed = try await showEventStream()

        report.set("live", "updates_applied", converged.appliedUpdates)
        report.set("live", "skipped_updates", converged.skippedUpdates)
        report.set("live", "drops_forced", 1)
        report.set("live", "reconnects", live.connection.openCount - 1)
        report.set("live", "converged", converged.radar == missed ? 1 : 0)
        report.set("live", "reconnect_ms", reconnectMs)
        report.set("live", "sse_resumed_with_last_event_id", resumed ? 1 : 0)
    }

    /// The event-stream twin: reads until a refresh, is cut off, and resumes after its last ID.
    private func showEventStream() async throws -> Bool {
        print("\n── Server-Sent Events: the same updates, resumed with Last-Event-ID")
        server.realtime.setEventStreamRetry(milliseconds: 100)
        let source = ServerSentEventSource(client: client, path: RadarLiveEndpoints.eventStreamPath(radarId: radarId))
        var events = source.events().makeAsyncIterator()
        guard let snapshot = try await events.next() else { return false }
        print("  event \(snapshot.id ?? "-"): \(snapshot.event)")
        server.realtime.dropConnections()
        _ = try await RadarClient(client: client).refresh(id: radarId)
        var resumedEvents: [ServerSentEvent] = []
        while let event = try await events.next() {
            resumedEvents.append(event)
            if event.event == "refresh" { break }
        }
        let sent = server.realtime.receivedLastEventIDs.last ?? ""
        print("  stream cut; reconnected after the server's retry: 100 with Last-Event-ID: \(sent)")
        print("  resumed events: " + resumedEvents.map { "\($0.id ?? "-") \($0.event)" }.joined(separator: ", "))
        return !sent.isEmpty && source.connectionCount == 2
    }
}
