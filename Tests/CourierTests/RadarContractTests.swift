import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import RadarAPI
import RadarCore
import ReferenceServer
import Testing

/// The Radar wire contract of seed 000, pinned by JSON fixtures written by hand from the
/// document's field lists (`Fixtures/Radar`), never produced by our encoder.
@Suite("Radar wire contract (seed 000)")
struct RadarContractTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/Radar")

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: fixtures.appendingPathComponent(name))
    }

    /// The keys of a JSON object, or of every object of an array, as one set.
    static func keys(of json: Data) throws -> Set<String> {
        switch try JSONSerialization.jsonObject(with: json) {
        case let object as [String: Any]: return Set(object.keys)
        case let array as [[String: Any]]: return array.reduce(into: Set()) { $0.formUnion($1.keys) }
        default: return []
        }
    }

    let decoder = JSONCoding.makeDecoder()

    @Test func aDocumentedRadarDecodesWithEveryField() throws {
        let radar = try decoder.decode(Radar.self, from: Self.fixture("radar.json"))
        #expect(radar.id == "6f1c2a9e-2d4b-4c8e-9a57-1b2f3c4d5e6f")
        #expect(radar.interpretation.subCategory == "remote")
        #expect(radar.interpretation.sentiment == .mixed)
        #expect(radar.position == .for)
        #expect(radar.opinions.count == 2)
        #expect(radar.opinions[1].reasoning == nil, "reasoning is optional")
        #expect(radar.lastPolledAt == ISO8601DateFormatter().date(from: "2025-03-01T09:31:00Z"))
        #expect(radar.refreshCount == 3)
    }

    @Test func theListIsABareArrayOfRadars() throws {
        let radars = try decoder.decode([Radar].self, from: Self.fixture("radar-list.json"))
        #expect(radars.map(\.id) == ["r_2", "r_1"])
        #expect(radars[0].interpretation.subCategory == nil, "subCategory may be null")
        #expect(radars[1].interpretation.subCategory == nil, "subCategory may be absent")
    }

    @Test func opinionsTrendsAndInterpretationsDecode() throws {
        let opinions = try decoder.decode([Opinion].self, from: Self.fixture("opinions.json"))
        #expect(opinions.first?.stance == .neutral)
        let trend = try decoder.decode(Trend.self, from: Self.fixture("trend.json"))
        #expect(trend.id == "trend_r_1")
        #expect(trend.data.first?.totalOpinions == 3)
        #expect(trend.data.first?.averageConfidence == 0.71)
        let interpretation = try decoder.decode(Interpretation.self, from: Self.fixture("interpretation.json"))
        #expect(interpretation.tags == ["quantum", "rsa"])
    }

    @Test func positionsCarryTheirDisplayNameAndColour() {
        #expect(Radar.Position.allCases.map(\.displayName) == ["For", "Against", "Neutral"])
        #expect(Radar.Position.allCases.map(\.color) == ["green", "red", "gray"])
    }

    @Test func anErrorBodyNeedsOnlyAMessage() throws {
        let body = try decoder.decode(APIErrorBody.self, from: Self.fixture("error.json"))
        #expect(body.message == "Radar not found")
        #expect(body.code == nil)
    }

    @Test func encodedRadarsAndRequestsHaveExactlyTheDocumentedKeys() throws {
        let encoder = JSONCoding.makeEncoder()
        let radar = try decoder.decode(Radar.self, from: Self.fixture("radar.json"))
        #expect(try Self.keys(of: encoder.encode(radar)) == Self.keys(of: Self.fixture("radar.json")))
        let trend = try decoder.decode(Trend.self, from: Self.fixture("trend.json"))
        #expect(try Self.keys(of: encoder.encode(trend)) == Self.keys(of: Self.fixture("trend.json")))
        #expect(try Self.keys(of: encoder.encode(CreateRadarRequest(topic: "x"))) == Self.keys(of: Self.fixture("create-request.json")))
    }

    @Test func updatesDecodeInTheDocumentsTaggedForm() throws {
        let opinion = try RadarUpdateMessage.decode(from: Self.fixture("update-new-opinion.json"))
        guard case .update(.newOpinion(let added)) = opinion else { Issue.record("not a new opinion: \(opinion)"); return }
        #expect(added.id == "op_10")
        let position = try RadarUpdateMessage.decode(from: Self.fixture("update-position-change.json"))
        #expect(position == .update(.positionChange(radarId: "r_1", position: .against)))
        let refresh = try RadarUpdateMessage.decode(from: Self.fixture("update-refresh.json"))
        guard case .update(.refresh(let radar)) = refresh else { Issue.record("not a refresh: \(refresh)"); return }
        #expect(radar.refreshCount == 1)
    }

    @Test func updatesEncodeInTheDocumentsTaggedForm() throws {
        let update = try RadarUpdateMessage.decode(from: Self.fixture("update-position-change.json"))
        let encoded = try JSONSerialization.jsonObject(with: RadarJSON.encoder().encode(update)) as? [String: Any]
        let data = encoded?["data"] as? [String: Any]
        #expect((data?["position"] as? [String: Any])?["_0"] as? String == "against")
    }

    @Test func updatesWithABarePayloadDecodeToo() throws {
        let bare = Data(#"{"type":"positionChange","radarId":"r_1","data":{"position":"for"}}"#.utf8)
        #expect(try RadarUpdateMessage.decode(from: bare) == .update(.positionChange(radarId: "r_1", position: .for)))
        let mismatched = Data(#"{"type":"refresh","radarId":"r_1","data":{"opinion":{"_0":{}}}}"#.utf8)
        #expect(throws: DecodingError.self) { try RadarUpdateMessage.decode(from: mismatched) }
    }

    @Test func theReferenceServerSendsTheDocumentedShapes() async throws {
        try await withRunningServer { server, url in
            let transport = AsyncHTTPClientTransport()
            let radar = RadarClient(baseURL: url, transport: transport, token: try await demoToken(server))
            do {
                let created = try await radar.create(topic: "Does the server speak seed 000?")
                let list = try await radar.client.send(RadarEndpoints.list(limit: 5))
                #expect(try JSONSerialization.jsonObject(with: list.data) is [Any], "the list is a bare array")
                #expect(try Self.keys(of: list.data) == Self.keys(of: Self.fixture("radar-list.json")))
                #expect(list.headers[.init("X-Total-Count")!].flatMap(Int.init) != nil, "the total travels in a header")
                let shown = try await radar.client.send(Request<Data>(path: "/api/radars/\(created.id)"))
                #expect(try Self.keys(of: shown.data) == Self.keys(of: Self.fixture("radar.json")))
                let trend = try await radar.client.send(Request<Data>(path: "/api/radars/\(created.id)/trends"))
                #expect(try Self.keys(of: trend.data) == Self.keys(of: Self.fixture("trend.json")))
                let points = try JSONSerialization.jsonObject(with: trend.data) as? [String: Any]
                let point = try JSONSerialization.data(withJSONObject: (points?["data"] as? [Any])?.first ?? [:])
                #expect(try Self.keys(of: point) == ["date", "forCount", "againstCount", "neutralCount", "totalOpinions", "averageConfidence"])
                let opinions = try await radar.client.send(Request<Data>(path: "/api/radars/\(created.id)/opinions"))
                #expect(try Self.keys(of: opinions.data).isSuperset(of: Self.keys(of: Self.fixture("opinions.json")).subtracting(["reasoning"])))
                try await transport.shutdown()
            } catch {
                try? await transport.shutdown()
                throw error
            }
        }
    }

    @Test func aBaseURLThatEndsInTheRootIsNotDoubled() {
        let root = APIRoot("/api/v1")
        #expect(root.baseURL(for: URL(string: "https://h")!).absoluteString == "https://h/api/v1")
        #expect(root.baseURL(for: URL(string: "https://h/api/v1")!).absoluteString == "https://h/api/v1")
        #expect(root.baseURL(for: URL(string: "https://h/api/v1/")!).absoluteString == "https://h/api/v1")
        #expect(root.baseURL(for: URL(string: "https://h/eu")!).absoluteString == "https://h/eu/api/v1")
        #expect(root.baseURL(for: URL(string: "https://h/xapi/v1")!).absoluteString == "https://h/xapi/v1/api/v1")
        #expect(RadarEndpoints.root.serverURL(for: URL(string: "https://h/api")!).absoluteString == "https://h")
        #expect(RadarEndpoints.root.serverURL(for: URL(string: "https://h/eu/api/")!).absoluteString == "https://h/eu")
        #expect(RadarEndpoints.root.serverURL(for: URL(string: "https://h")!).absoluteString == "https://h")
    }
}

@Suite("A plain seed-000 origin: no sign-in, no total, documented JSON")
struct PlainRadarOriginTests {
    @Test func listAndShowWorkWithoutATotalOrATrailingApi() async throws {
        let transport = StubTransport()
        transport.stub(.get, "/api/radars?limit=20&offset=0", with: MockResponse(headers: [.contentType: "application/json"], body: try RadarContractTests.fixture("radar-list.json")))
        transport.stub(.get, "/api/radars/r_1", with: MockResponse(headers: [.contentType: "application/json"], body: try RadarContractTests.fixture("radar.json")))
        transport.stub(.delete, "/api/radars/r_1", with: MockResponse(body: Data("{}".utf8)))
        transport.stub(.delete, "/api/radars/r_2", with: MockResponse(status: .noContent))
        for base in ["https://api.radar.test", "https://api.radar.test/api", "https://api.radar.test/api/"] {
            let radar = RadarClient(baseURL: URL(string: base)!, transport: transport, token: "t")
            let page = try await radar.list()
            #expect(page.items.map(\.id) == ["r_2", "r_1"])
            #expect(page.total == nil, "no X-Total-Count: tolerated")
            #expect(page.mayHaveMore == false)
            #expect(try await radar.get(id: "r_1").topic == "Will remote work outlast the decade?")
            try await radar.delete(id: "r_1")
            try await radar.delete(id: "r_2")
        }
        #expect(transport.requests.allSatisfy { !($0.request.path ?? "").hasPrefix("/api/api") })
    }
}
