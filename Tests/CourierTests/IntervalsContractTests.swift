import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import HTTPTypes
import IntervalsAPI
import IntervalsCore
import ReferenceServer
import Testing

/// The hand-written JSON in `Fixtures/Intervals`: the VeloReady document's shapes (bare arrays
/// for the lists, `{"id", "name"}` for its own activity example) with intervals.icu's field
/// names where the document names none. Written by hand, never by our encoder, so that a
/// change to the models that breaks the wire breaks these tests.
private enum IntervalsFixture {
    /// The folder beside this file.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/Intervals")

    /// A fixture's bytes.
    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name))
    }

    /// The keys of a fixture that is one JSON object.
    static func objectKeys(_ name: String) throws -> Set<String> {
        try IntervalsJSONKeys.ofObject(data(name))
    }

    /// The keys of each object of a fixture that is a bare JSON array.
    static func elementKeys(_ name: String) throws -> [Set<String>] {
        try IntervalsJSONKeys.ofArray(data(name))
    }
}

/// Key sets of JSON text, read with `JSONSerialization` so that no model is involved.
private enum IntervalsJSONKeys {
    struct NotTheExpectedShape: Error, CustomStringConvertible {
        let description: String
    }

    /// The keys of a JSON object, `null`-valued ones included.
    static func ofObject(_ data: Data) throws -> Set<String> {
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw NotTheExpectedShape(description: "not a JSON object: \(String(decoding: data.prefix(200), as: UTF8.self))")
        }
        return Set(object.keys)
    }

    /// The keys of each object of a bare JSON array; throws if the top level is anything else.
    static func ofArray(_ data: Data) throws -> [Set<String>] {
        guard let array = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            throw NotTheExpectedShape(description: "not a bare JSON array of objects: \(String(decoding: data.prefix(200), as: UTF8.self))")
        }
        return array.map { Set($0.keys) }
    }
}

/// An intervals client on a mock transport that answers the document's three reads with the
/// fixtures and a save with the activity fixture.
private func fixtureClient(baseURL: String = "https://intervals.icu/api/v1") throws -> (IntervalsClient, MockTransport) {
    let list = try IntervalsFixture.data("activities.json")
    let one = try IntervalsFixture.data("activity.json")
    let wellness = try IntervalsFixture.data("wellness.json")
    let transport = MockTransport { request, _ in
        let path = request.path ?? ""
        let body: Data
        if path.hasPrefix("/api/v1/wellness?") {
            body = wellness
        } else if path.hasPrefix("/api/v1/activities/") {
            body = one
        } else if path == "/api/v1/activities" {
            body = list
        } else {
            return .status(.notFound)
        }
        return MockResponse(status: .ok, headers: [.contentType: "application/json"], body: body)
    }
    guard let url = URL(string: baseURL) else { throw IntervalsJSONKeys.NotTheExpectedShape(description: "not a URL: \(baseURL)") }
    return (IntervalsClient(baseURL: url, transport: transport), transport)
}

private func intervalsDate(_ secondsSince1970: Double) -> Date {
    Date(timeIntervalSince1970: secondsSince1970)
}

/// Whether a decoded date is the expected moment to the millisecond (fractions parse inexactly).
private func intervalsDate(_ date: Date?, isCloseTo expected: Double) -> Bool {
    guard let date else { return false }
    return abs(date.timeIntervalSince1970 - expected) < 0.001
}

@Suite("Intervals wire contract: the VeloReady document")
struct IntervalsContractTests {
    // MARK: - Decoding the fixtures with the client's decoder

    @Test func theActivityListDecodesFromABareArrayWithNullsAndUnknownSports() throws {
        let (intervals, _) = try fixtureClient()
        let activities = try intervals.client.configuration.decoder.decode([Activity].self, from: IntervalsFixture.data("activities.json"))
        #expect(activities.map(\.id) == ["i1119", "i1117", "i1116"])

        let ride = activities[0]
        #expect(ride.name == "Sweet spot intervals")
        #expect(ride.type == .ride)
        #expect(ride.startDate == intervalsDate(1_795_158_720))
        #expect(ride.startDateLocal == "2026-11-20T08:12:00")
        #expect(ride.movingTime == 5_400)
        #expect(ride.distance == 45_210)
        #expect(ride.elevationGain == 640)
        #expect(ride.averageWatts == 212)
        #expect(ride.averageHeartRate == 141)
        #expect(ride.trainingLoad == 88)

        let strength = activities[1]
        #expect(strength.type == .weightTraining)
        #expect(strength.elevationGain == nil)
        #expect(strength.averageWatts == nil)
        #expect(strength.averageHeartRate == nil)
        #expect(strength.trainingLoad == 21)

        let hike = activities[2]
        #expect(hike.type?.rawValue == "Hike", "a sport the app has no constant for still decodes")
        #expect(intervalsDate(hike.startDate, isCloseTo: 1_794_902_700.25), "fractional seconds and a +01:00 offset")
        #expect(hike.averageHeartRate == 118, "an integer heart rate reads as a number")
        #expect(hike.trainingLoad == nil)
    }

    @Test func oneActivityDecodesFromAnObject() throws {
        let (intervals, _) = try fixtureClient()
        let decoder = intervals.client.configuration.decoder
        let one = try decoder.decode(Activity.self, from: IntervalsFixture.data("activity.json"))
        let list = try decoder.decode([Activity].self, from: IntervalsFixture.data("activities.json"))
        #expect(one == list[0])
    }

    @Test func theDocumentsOwnActivityExampleDecodesWithOnlyAnIdAndAName() throws {
        let (intervals, _) = try fixtureClient()
        let activity = try intervals.client.configuration.decoder.decode(Activity.self, from: IntervalsFixture.data("activity-minimal.json"))
        #expect(activity == Activity(id: "123", name: "Test Activity"))
        #expect(activity.type == nil)
        #expect(activity.startDate == nil)
    }

    @Test func anActivityWithoutItsIdOrNameIsRejected() throws {
        let (intervals, _) = try fixtureClient()
        let decoder = intervals.client.configuration.decoder
        #expect(throws: DecodingError.self) { try decoder.decode(Activity.self, from: Data(#"{"id": "123"}"#.utf8)) }
        #expect(throws: DecodingError.self) { try decoder.decode(Activity.self, from: Data(#"{"name": "Test Activity"}"#.utf8)) }
    }

    @Test func wellnessDecodesFromABareArrayKeyedByDay() throws {
        let (intervals, _) = try fixtureClient()
        let records = try intervals.client.configuration.decoder.decode([Wellness].self, from: IntervalsFixture.data("wellness.json"))
        #expect(records.map(\.id.description) == ["2026-11-19", "2026-11-20"])

        let logged = records[0]
        #expect(logged.ctl == 52.3)
        #expect(logged.atl == 61.8)
        #expect(logged.restingHeartRate == 49)
        #expect(logged.hrv == 71)
        #expect(logged.sleepSeconds == 27_000)
        #expect(logged.weight == 70.8)
        #expect(logged.updatedAt == intervalsDate(1_795_075_200))
        #expect(logged.form.map { abs($0 - (52.3 - 61.8)) < 1e-9 } == true)

        let unlogged = records[1]
        #expect(unlogged.restingHeartRate == nil)
        #expect(unlogged.hrv == nil)
        #expect(unlogged.sleepSeconds == nil)
        #expect(unlogged.weight == nil)
        #expect(intervalsDate(unlogged.updatedAt, isCloseTo: 1_795_156_873.482))
    }

    @Test func aWellnessRecordNeedsOnlyItsDay() throws {
        let (intervals, _) = try fixtureClient()
        let records = try intervals.client.configuration.decoder.decode([Wellness].self, from: IntervalsFixture.data("wellness-minimal.json"))
        #expect(records.count == 1)
        #expect(records.first?.id.description == "2026-11-20")
        #expect(records.first?.ctl == nil)
        #expect(records.first?.form == nil)
        #expect(throws: DecodingError.self) {
            try intervals.client.configuration.decoder.decode([Wellness].self, from: Data(#"[{"ctl": 50.0}]"#.utf8))
        }
    }

    @Test func theRepositoriesReadTheFixturesThroughTheClient() async throws {
        let (intervals, _) = try fixtureClient()
        let decoder = intervals.client.configuration.decoder
        let day = try #require(CalendarDay("2026-11-19"))
        #expect(try await intervals.activities.list() == decoder.decode([Activity].self, from: IntervalsFixture.data("activities.json")))
        #expect(try await intervals.activities.get(id: "i1119") == decoder.decode(Activity.self, from: IntervalsFixture.data("activity.json")))
        #expect(try await intervals.wellness.range(from: day, through: day.adding(days: 1)) == decoder.decode([Wellness].self, from: IntervalsFixture.data("wellness.json")))
    }

    // MARK: - What the models write

    @Test func theModelsWriteExactlyTheFixturesKeysWithNullsForUnknownValues() throws {
        let (intervals, _) = try fixtureClient()
        let decoder = intervals.client.configuration.decoder
        let encoder = intervals.client.configuration.encoder

        let activities = try decoder.decode([Activity].self, from: IntervalsFixture.data("activities.json"))
        #expect(try IntervalsJSONKeys.ofArray(encoder.encode(activities)) == IntervalsFixture.elementKeys("activities.json"))
        let minimal = try decoder.decode(Activity.self, from: IntervalsFixture.data("activity-minimal.json"))
        #expect(try IntervalsJSONKeys.ofObject(encoder.encode(minimal)) == IntervalsFixture.objectKeys("activity.json"))

        let wellness = try decoder.decode([Wellness].self, from: IntervalsFixture.data("wellness.json"))
        #expect(try IntervalsJSONKeys.ofArray(encoder.encode(wellness)) == IntervalsFixture.elementKeys("wellness.json"))
    }

    @Test func savingAnActivitySendsOnlyItsNameAndTypeToItsPath() async throws {
        let (intervals, transport) = try fixtureClient()
        var activity = try await intervals.activities.get(id: "i1119")
        activity.name = "Renamed by the athlete"
        activity.type = .virtualRide
        transport.reset()
        _ = try await intervals.activities.save(activity)

        let sent = try #require(transport.requests.first)
        #expect(transport.requests.count == 1)
        #expect(sent.request.method == .put)
        #expect(sent.request.path == "/api/v1/activities/i1119")
        #expect(sent.request.headerFields[.contentType] == "application/json")
        let body = try #require(sent.body)
        #expect(try IntervalsJSONKeys.ofObject(body) == IntervalsFixture.objectKeys("activity-update.json"))
        #expect(try sent.decodedBody(as: ActivityUpdate.self) == ActivityUpdate(name: "Renamed by the athlete", type: .virtualRide))
    }

    @Test func anUpdateLeavesOutTheFieldsThatAreNotSet() async throws {
        let (intervals, transport) = try fixtureClient()
        _ = try await intervals.client.send(IntervalsEndpoints.updateActivity(id: "i1119", ActivityUpdate(name: "Only the name")))
        _ = try await intervals.client.send(IntervalsEndpoints.updateActivity(id: "i1119", ActivityUpdate(type: .run)))
        let bodies = try transport.requests.map { try IntervalsJSONKeys.ofObject($0.body ?? Data()) }
        #expect(bodies == [["name"], ["type"]], "never `null`, which a server could read as clearing the field")
    }

    // MARK: - Paths and the base URL

    @Test func theEndpointsAreTheDocumentsPathsUnderTheAPIv1Root() {
        #expect(IntervalsEndpoints.root.path == "/api/v1")
        #expect(IntervalsEndpoints.activities().path == "/activities")
        #expect(IntervalsEndpoints.activities().query.isEmpty, "the document's list sends no query")
        #expect(IntervalsEndpoints.activity(id: "i1119").path == "/activities/i1119")
        #expect(IntervalsEndpoints.activity(id: "a/b").path == "/activities/a%2Fb", "an id stays one segment")
        #expect(IntervalsEndpoints.wellness(start: intervalsDate(0), end: intervalsDate(86_400)).path == "/wellness")
        let update = IntervalsEndpoints.updateActivity(id: "i1119", ActivityUpdate(name: "x"))
        #expect(update.method == .put)
        #expect(update.path == "/activities/i1119")
        #expect(update.options.invalidates == ["/activities"], "a save drops the cached activity and lists")
    }

    @Test(arguments: ["https://intervals.icu", "https://intervals.icu/", "https://intervals.icu/api/v1", "https://intervals.icu/api/v1/"])
    func everyPathIsSentUnderAPIv1WhicheverFormTheBaseURLTakes(baseURL: String) async throws {
        let (intervals, transport) = try fixtureClient(baseURL: baseURL)
        #expect(intervals.client.configuration.baseURL.absoluteString == "https://intervals.icu/api/v1")
        let day = try #require(CalendarDay("2026-11-19"))
        _ = try await intervals.activities.list()
        _ = try await intervals.activities.get(id: "i1119")
        _ = try await intervals.wellness.range(from: day, through: day.adding(days: 1))
        #expect(transport.requests.map { $0.request.path ?? "" } == [
            "/api/v1/activities",
            "/api/v1/activities/i1119",
            "/api/v1/wellness?start=2026-11-19T00:00:00Z&end=2026-11-20T00:00:00Z",
        ])
        #expect(transport.requests.allSatisfy { $0.request.method == .get })
    }

    @Test func aBaseURLSetWhileConfiguringIsNormalisedToo() throws {
        let server = try #require(URL(string: "https://example.test"))
        let intervals = IntervalsClient(baseURL: server, transport: MockTransport(always: .status(.ok))) {
            $0.baseURL = URL(string: "https://eu.intervals.test/")!
        }
        #expect(intervals.client.configuration.baseURL.absoluteString == "https://eu.intervals.test/api/v1")
    }

    @Test func wellnessMomentsAreSentAsTheDocumentsISO8601DateTimes() async throws {
        let (intervals, transport) = try fixtureClient()
        _ = try await intervals.wellness.range(from: intervalsDate(1_795_075_200), to: intervalsDate(1_795_158_720))
        #expect(transport.requests.first?.request.path == "/api/v1/wellness?start=2026-11-19T08:00:00Z&end=2026-11-20T07:12:00Z")
    }

    // MARK: - Cache policies

    @Test func theRepositoriesDefaultToTheDocumentsPoliciesAndCanBeChanged() throws {
        let url = try #require(URL(string: "https://intervals.icu"))
        var intervals = IntervalsClient(baseURL: url, transport: MockTransport(always: .status(.ok)))
        #expect(intervals.activities.cachePolicy == .cacheFirst)
        #expect(intervals.wellness.cachePolicy == .networkFirst)
        intervals.wellness.cachePolicy = .http
        #expect(intervals.wellness.cachePolicy == .http)

        let custom = IntervalsClient(client: intervals.client, activitiesPolicy: .http, wellnessPolicy: .noCache)
        #expect(custom.activities.cachePolicy == .http)
        #expect(custom.wellness.cachePolicy == .noCache)
    }

    // MARK: - The reference server speaks the same contract

    @Test func theReferenceServerSendsTheFixturesShapesAndKeys() async throws {
        try await withRunningServer { server, url in
            let token = try await demoToken(server)
            let transport = AsyncHTTPClientTransport()
            do {
                let intervals = IntervalsClient(baseURL: url, transport: transport) {
                    $0.middleware.append(BearerTokenMiddleware(token: token))
                }
                let activityKeys = try IntervalsFixture.objectKeys("activity.json")
                #expect(try Set(IntervalsFixture.elementKeys("activities.json")) == [activityKeys], "the fixtures agree with each other")
                let wellnessKeys = try IntervalsFixture.elementKeys("wellness.json")

                let list = try await intervals.client.value(for: IntervalsEndpoints.activities().decoding(Data.self))
                let listKeys = try IntervalsJSONKeys.ofArray(list)
                #expect(!listKeys.isEmpty)
                #expect(listKeys.allSatisfy { $0 == activityKeys })

                let first = try #require(try intervals.client.configuration.decoder.decode([Activity].self, from: list).first)
                let one = try await intervals.client.value(for: IntervalsEndpoints.activity(id: first.id).decoding(Data.self))
                #expect(try IntervalsJSONKeys.ofObject(one) == activityKeys)

                let start = try #require(CalendarDay("2026-11-01"))
                let days = try await intervals.client.value(for: IntervalsEndpoints.wellness(start: start, end: start.adding(days: 19)).decoding(Data.self))
                let dayKeys = try IntervalsJSONKeys.ofArray(days)
                #expect(dayKeys.count == 20)
                #expect(dayKeys.allSatisfy { Set(wellnessKeys) == [$0] })
                try await transport.shutdown()
            } catch {
                try? await transport.shutdown()
                throw error
            }
        }
    }

    @Test func theReferenceServerReadsWellnessBoundsAsDateTimesOrPlainDays() async throws {
        try await withRunningServer { server, url in
            let token = try await demoToken(server)
            let transport = AsyncHTTPClientTransport()
            do {
                let intervals = IntervalsClient(baseURL: url, transport: transport) {
                    $0.middleware.append(BearerTokenMiddleware(token: token))
                }
                let start = try #require(CalendarDay("2026-11-14"))
                let asDateTimes = try await intervals.wellness.range(from: start, through: start.adding(days: 6))
                let asDays = try await intervals.client.value(for: Request<[Wellness]>(
                    path: "/wellness",
                    query: [URLQueryItem(name: "start", value: "2026-11-14"), URLQueryItem(name: "end", value: "2026-11-20")]
                ))
                #expect(asDateTimes.count == 7)
                #expect(asDateTimes == asDays)
                try await transport.shutdown()
            } catch {
                try? await transport.shutdown()
                throw error
            }
        }
    }
}
