import Courier
import CourierAsyncHTTPClient
import Foundation
import RadarAPI
import RadarCore
import ReferenceServer
import Testing

@Suite("The Radar client against the reference server")
struct RadarClientTests {
    private func withRadar(_ body: (RadarClient) async throws -> Void) async throws {
        try await withRunningServer { server, url in
            let transport = AsyncHTTPClientTransport()
            let radar = RadarClient(baseURL: url, transport: transport, token: try await demoToken(server))
            do {
                try await body(radar)
                try await transport.shutdown()
            } catch {
                try? await transport.shutdown()
                throw error
            }
        }
    }

    @Test func createShowListAndDeleteARadar() async throws {
        try await withRadar { radar in
            let before = try await radar.list()
            let created = try await radar.create(topic: "  Cats are better than dogs  ", isPublic: true)
            #expect(created.topic == "Cats are better than dogs")
            #expect(created.isPublic)
            #expect(created.opinions.count == 3)
            #expect(!created.interpretation.text.isEmpty)

            let shown = try await radar.get(id: created.id)
            #expect(shown == created)

            let after = try await radar.list(limit: 100)
            #expect(after.total == (before.total ?? 0) + 1)
            #expect(after.items.first?.id == created.id, "newest first")

            try await radar.delete(id: created.id)
            let error = await courierError { _ = try await radar.get(id: created.id) }
            #expect(error?.code == .notFound)
        }
    }

    @Test func listPagesWithLimitAndOffset() async throws {
        try await withRadar { radar in
            let all = try await radar.list(limit: 100)
            let second = try await radar.list(limit: 1, offset: 1)
            #expect(second.items.count == 1)
            #expect(second.limit == 1 && second.offset == 1)
            #expect(second.items.first == all.items[1])
            let error = await courierError { _ = try await radar.list(limit: 0) }
            #expect(error?.code == .clientError)
            #expect(error?.serverCode == "validation_failed")
        }
    }

    @Test func refreshAddsOpinionsAndCountsTheRefresh() async throws {
        try await withRadar { radar in
            let created = try await radar.create(topic: "Rust will replace C++")
            let refreshed = try await radar.refresh(id: created.id)
            #expect(refreshed.refreshCount == created.refreshCount + 1)
            #expect(refreshed.opinions.count == created.opinions.count + 2)
            #expect(refreshed.lastPolledAt >= created.lastPolledAt)
            let opinions = try await radar.opinions(id: created.id)
            #expect(Set(opinions.map(\.id)) == Set(refreshed.opinions.map(\.id)))
            #expect(opinions.allSatisfy { (0...1).contains($0.confidence) && $0.radarId == created.id })
        }
    }

    @Test func trendsHaveOnePointPerDay() async throws {
        try await withRadar { radar in
            let created = try await radar.create(topic: "Remote work is here to stay")
            let trend = try await radar.trends(id: created.id, days: 5)
            #expect(trend.data.count == 5)
            #expect(trend.radarId == created.id)
            #expect(trend.data.map(\.totalOpinions).reduce(0, +) == created.opinions.count)
            #expect(trend.data.allSatisfy { $0.totalOpinions == $0.forCount + $0.againstCount + $0.neutralCount })
            let error = await courierError { _ = try await radar.trends(id: created.id, days: 365) }
            #expect(error?.status?.code == 422)
        }
    }

    @Test func interpretReadsATopic() async throws {
        try await withRadar { radar in
            let interpretation = try await radar.interpret(topic: "Electric cars are good for the climate")
            #expect(!interpretation.text.isEmpty)
            #expect(!interpretation.category.isEmpty)
            let error = await courierError { _ = try await radar.interpret(topic: "   ") }
            #expect(error?.status?.code == 422)
        }
    }

    @Test func idsWithSlashesStayOneSegment() async throws {
        try await withRadar { radar in
            let error = await courierError { _ = try await radar.get(id: "../radars") }
            #expect(error?.code == .notFound)
            #expect(error?.url?.hasSuffix("/api/radars/..%2Fradars") == true)
        }
    }

    @Test func wrongTokenIsUnauthorized() async throws {
        try await withReferenceServer { url in
            let transport = AsyncHTTPClientTransport()
            let radar = RadarClient(baseURL: url, transport: transport, token: "nope")
            let error = await courierError { _ = try await radar.list() }
            try await transport.shutdown()
            #expect(error?.code == .unauthorized)
            #expect(error?.userFacing.action == .signIn)
        }
    }
}
