import ClarityAPI
import Courier
import CourierAsyncHTTPClient
import CourierWebSocket
import Foundation
@testable import RadarAPI
import RadarCore
import ReferenceServer
import Testing

@Suite("Radar live view against the reference server")
struct RadarLiveViewTests {
    @Test func theLiveViewConvergesToTheServersRadarAcrossADrop() async throws {
        try await withRunningServer { server, url in
            try await withTransport(AsyncHTTPClientTransport()) { transport in
                let demo = ReferenceServerConfiguration()
                let clarity = ClarityClient(baseURL: url, transport: transport)
                try await clarity.signIn(email: demo.demoEmail, password: demo.demoPassword)
                let radar = radarClient(sharing: clarity)
                let reconnect = ReconnectPolicy(backoff: Backoff(.constant(.milliseconds(10)), maxDelay: .milliseconds(10), jitter: .none))
                let live = await RadarLiveView(radarId: "r_1", client: radar.client, reconnect: reconnect, heartbeat: nil)
                let snapshots = await live.snapshots()
                await live.start()

                let initial = try await radar.get(id: "r_1")
                #expect(await Self.first(in: snapshots) { $0.radar == initial } != nil)
                _ = try await radar.refresh(id: "r_1")
                _ = try await radar.refresh(id: "r_1")
                let afterTwo = try await radar.get(id: "r_1")
                #expect(await Self.first(in: snapshots) { $0.radar == afterTwo } != nil)

                server.realtime.dropConnections()
                _ = try await radar.refresh(id: "r_1")
                let afterDrop = try await radar.get(id: "r_1")
                let converged = await Self.first(in: snapshots) { $0.radar == afterDrop && $0.connection == .connected }
                #expect(converged?.radar == afterDrop)
                #expect(live.connection.openCount == 2)
                #expect(await live.skippedUpdates == 0)
                #expect(await live.appliedUpdates >= 3)
                await live.stop()
            }
        }
    }

    /// The first snapshot that matches, reading at most 200.
    private static func first(
        in snapshots: AsyncStream<RadarLiveView.Snapshot>,
        where predicate: (RadarLiveView.Snapshot) -> Bool
    ) async -> RadarLiveView.Snapshot? {
        var count = 0
        for await snapshot in snapshots {
            if predicate(snapshot) { return snapshot }
            count += 1
            if count >= 200 { return nil }
        }
        return nil
    }

    @Test @MainActor func anUnknownOrMalformedUpdateIsSkippedNotFatal() async throws {
        let connection = WebSocketConnection(configuration: WebSocketConfiguration(url: URL(string: "ws://127.0.0.1:1/x")!))
        let live = RadarLiveView(radarId: "r_1", connection: connection)
        live.receive(.text(#"{"type":"reaction","radarId":"r_1","data":{}}"#))
        live.receive(.text(#"{"type":"positionChange","radarId":"r_1"}"#))
        live.receive(.text(#"{"type":"positionChange","radarId":"r_1","data":{"position":"for"}}"#))
        #expect(live.skippedUpdates == 3, "unknown, malformed, and a change before the radar itself")
        #expect(live.radar == nil)
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let radar = Radar(
            id: "r_1", userId: "u", topic: "t", interpretation: Interpretation(text: "t", category: "c"),
            lastPolledAt: date, createdAt: date, updatedAt: date
        )
        live.receive(.text(String(decoding: try RadarUpdateMessage.encode(.refresh(radar)), as: UTF8.self)))
        live.receive(.text(#"{"type":"positionChange","radarId":"r_1","data":{"position":"for"}}"#))
        #expect(live.radar?.position == .for)
        #expect(live.appliedUpdates == 2)
    }
}
