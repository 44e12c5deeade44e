import ClarityAPI
import Courier
import CourierAsyncHTTPClient
import CourierWebSocket
import Foundation
import RadarAPI
import RadarCore
import ReferenceServer
import Testing

@Suite("Server-Sent Events against the reference server")
struct ServerSentEventSourceTests {
    @Test func afterTheStreamEndsItReconnectsWithLastEventIDAndMissesNothing() async throws {
        try await withRunningServer { server, url in
            server.realtime.setEventStreamRetry(milliseconds: 20)
            try await withTransport(AsyncHTTPClientTransport()) { transport in
                let demo = ReferenceServerConfiguration()
                let clarity = ClarityClient(baseURL: url, transport: transport)
                try await clarity.signIn(email: demo.demoEmail, password: demo.demoPassword)
                let radar = radarClient(sharing: clarity)
                let source = ServerSentEventSource(client: radar.client, path: RadarLiveEndpoints.eventStreamPath(radarId: "r_1"))
                var events = source.events().makeAsyncIterator()

                let snapshot = try #require(try await events.next())
                #expect(snapshot.event == "refresh")
                _ = try await radar.refresh(id: "r_1")
                var firstRound: [ServerSentEvent] = []
                while firstRound.last?.event != "refresh", let event = try await events.next() { firstRound.append(event) }
                let lastSeen = try #require(firstRound.last?.id)

                server.realtime.dropConnections()
                // Refreshed while the stream is down (or reconnecting): the resumed stream must replay it.
                let missed = try await radar.refresh(id: "r_1")
                var secondRound: [ServerSentEvent] = []
                while let event = try await events.next() {
                    secondRound.append(event)
                    if event.event == "refresh", let data = event.data.data(using: .utf8),
                       case .update(.refresh(let radar)) = try RadarUpdateMessage.decode(from: data),
                       radar.refreshCount == missed.refreshCount { break }
                }
                #expect(server.realtime.receivedLastEventIDs == ["", lastSeen])
                #expect(source.connectionCount == 2)
                let ids = ([snapshot] + firstRound + secondRound).compactMap { $0.id.flatMap(Int.init) }
                #expect(ids == ids.sorted() && Set(ids).count == ids.count, "ids increase, without repeats: \(ids)")
                let opinions = secondRound.filter { $0.event == "newOpinion" }.count
                #expect(opinions == 2, "the two opinions of the missed refresh arrive once")
            }
        }
    }
}
