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

/// An intervals client on a mock transport that answers as intervals.icu does on its
/// athlete-scoped paths, with the fixtures: the activity list, one activity, a wellness range,
/// one wellness day, and an empty 200 for a bulk write. Any other path is 404, as the real
/// service answers seed 003's illustrative `/activities` and `/wellness`.
private func fixtureClient(
    baseURL: String = "https://intervals.icu/api/v1", athlete: String = "0", auth: IntervalsAuth? = .apiKey("test-key")
) throws -> (IntervalsClient, MockTransport) {
    let list = try IntervalsFixture.data("activities.json")
    let one = try IntervalsFixture.data("activity.json")
    let wellness = try IntervalsFixture.data("wellness.json")
    let athletePath = "/api/v1/athlete/" + athlete
    let transport = MockTransport { request, body in
        let path = request.path ?? ""
        let route = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
        switch (request.method, route) {
        case (.get, athletePath + "/activities"): return MockResponse(status: .ok, headers: [.contentType: "application/json"], body: list)
        case (.get, let route) where route.hasPrefix("/api/v1/activity/"): return MockResponse(status: .ok, headers: [.contentType: "application/json"], body: one)
        case (.put, let route) where route.hasPrefix("/api/v1/activity/"): return MockResponse(status: .ok, headers: [.contentType: "application/json"], body: one)
        case (.get, athletePath + "/wellness"): return MockResponse(status: .ok, headers: [.contentType: "application/json"], body: wellness)
        case (.get, let route) where route.hasPrefix(athletePath + "/wellness/"):
            return MockResponse(status: .ok, headers: [.contentType: "application/json"], body: Data(#"{"id": "2026-11-20", "ctl": 52.9}"#.utf8))
        case (.put, let route) where route.hasPrefix(athletePath + "/wellness/"):
            return MockResponse(status: .ok, headers: [.contentType: "application/json"], body: body ?? Data())
        case (.put, athletePath + "/wellness-bulk"): return .status(.ok)
        default: return .status(.notFound)
        }
    }
    guard let url = URL(string: baseURL) else { throw IntervalsJSONKeys.NotTheExpectedShape(description: "not a URL: \(baseURL)") }
    let intervals = IntervalsClient(baseURL: url, transport: transport, auth: auth, athlete: athlete) {
        $0.clock = FixedDateClock.lastIntervalsDay
    }
    return (intervals, transport)
}

private func intervalsDate(_ secondsSince1970: Double) -> Date {
    Date(timeIntervalSince1970: secondsSince1970)
}

/// Whether a decoded date is the expected moment to the millisecond (fractions parse inexactly).
private func intervalsDate(_ date: Date?, isCloseTo expected: Double) -> Bool {
    guard let date else { return false }
    return abs(date.timeIntervalSince1970 - expected) < 0.001
}

@Suite("Intervals wire contract: intervals.icu API v1")
struct IntervalsContractTests {
    // MARK: - Decoding the fixtures with the client's decoder

    @Test func theActivityListDecodesFromABareArrayWithNullsWholeNumbersAsFractionsAndUnknownSports() throws {
        let (intervals, _) = try fixtureClient()
        let activities = try intervals.client.configuration.decoder.decode([Activity].self, from: IntervalsFixture.data("activities.json"))
        #expect(activities.map(\.id) == ["i1119", "i1117", "i1116"])

        let ride = activities[0]
        #expect(ride.name == "Sweet spot intervals")
        #expect(ride.type == .ride)
        #expect(ride.startDate == intervalsDate(1_795_158_720))
        #expect(ride.startDateLocal == "2026-11-20T08:12:00")
        #expect(ride.movingTime == 5_400)
        #expect(ride.elapsedTime == 5_620)
        #expect(ride.distance == 45_210)
        #expect(ride.elevationGain == 640)
        #expect(ride.averageWatts == 209)
        #expect(ride.icuAverageWatts == 212)
        #expect(ride.weightedAverageWatts == 231)
        #expect(ride.trainingLoad == 88)
        #expect(ride.intensity == 84.2)
        #expect(ride.ftp == 275)
        #expect(ride.ctl == 52.9)
        #expect(ride.atl == 63.1)
        #expect(ride.averageHeartRate == 141)
        #expect(ride.maxHeartRate == 171)
        #expect(ride.calories == 1_130)
        #expect(ride.trainer == false)

        let strength = activities[1]
        #expect(strength.type == .weightTraining)
        #expect(strength.movingTime == 2_700, "2700.0 reads as a whole number")
        #expect(strength.trainingLoad == 21, "21.0 reads as a whole number")
        #expect(strength.elevationGain == nil)
        #expect(strength.averageWatts == nil)
        #expect(strength.averageHeartRate == nil)
        #expect(strength.trainer == nil)

        let hike = activities[2]
        #expect(hike.type?.rawValue == "Hike", "a sport the app has no constant for still decodes")
        #expect(intervalsDate(hike.startDate, isCloseTo: 1_794_902_700.25), "fractional seconds and a +01:00 offset")
        #expect(hike.averageHeartRate == 118.5)
        #expect(hike.trainingLoad == nil)
    }

    @Test func oneActivityDecodesFromAnObjectAndFieldsTheServiceAddsAreIgnored() throws {
        let (intervals, _) = try fixtureClient()
        let decoder = intervals.client.configuration.decoder
        let one = try decoder.decode(Activity.self, from: IntervalsFixture.data("activity.json"))
        let list = try decoder.decode([Activity].self, from: IntervalsFixture.data("activities.json"))
        #expect(one == list[0])
        #expect(try decoder.decode(Activity.self, from: IntervalsFixture.data("activity-extra-fields.json")) == one)
    }

    @Test func anActivityNeedsOnlyAnIdAndAName() throws {
        let (intervals, _) = try fixtureClient()
        let activity = try intervals.client.configuration.decoder.decode(Activity.self, from: IntervalsFixture.data("activity-minimal.json"))
        #expect(activity == Activity(id: "123", name: "Test Activity"))
        #expect(activity.type == nil)
        #expect(activity.startDate == nil)
    }

    @Test func anActivityWithoutItsIdOrNameOrWithAFractionalCountIsRejected() throws {
        let (intervals, _) = try fixtureClient()
        let decoder = intervals.client.configuration.decoder
        #expect(throws: DecodingError.self) { try decoder.decode(Activity.self, from: Data(#"{"id": "123"}"#.utf8)) }
        #expect(throws: DecodingError.self) { try decoder.decode(Activity.self, from: Data(#"{"name": "Test Activity"}"#.utf8)) }
        #expect(throws: DecodingError.self) { try decoder.decode(Activity.self, from: Data(#"{"id": "1", "name": "x", "moving_time": 12.5}"#.utf8)) }
    }

    @Test func wellnessDecodesFromABareArrayKeyedByDayInCamelCase() throws {
        let (intervals, _) = try fixtureClient()
        let records = try intervals.client.configuration.decoder.decode([Wellness].self, from: IntervalsFixture.data("wellness.json"))
        #expect(records.map(\.id.description) == ["2026-11-19", "2026-11-20"])

        let logged = records[0]
        #expect(logged.ctl == 52.3)
        #expect(logged.atl == 61.8)
        #expect(logged.rampRate == 1.4)
        #expect(logged.restingHeartRate == 49)
        #expect(logged.hrv == 71)
        #expect(logged.hrvSDNN == 88.5)
        #expect(logged.sleepSeconds == 27_000)
        #expect(logged.sleepScore == 84)
        #expect(logged.readiness == 77)
        #expect(logged.weight == 70.8)
        #expect(logged.steps == 9_120)
        #expect(logged.spO2 == 97.5)
        #expect(logged.soreness == 2)
        #expect(logged.fatigue == 2)
        #expect(logged.mood == 1)
        #expect(logged.updatedAt == intervalsDate(1_795_075_200))
        #expect(logged.form.map { abs($0 - (52.3 - 61.8)) < 1e-9 } == true)

        let unlogged = records[1]
        #expect(unlogged.restingHeartRate == nil)
        #expect(unlogged.hrv == nil)
        #expect(unlogged.sleepSeconds == nil)
        #expect(unlogged.weight == nil)
        #expect(unlogged.mood == nil)
        #expect(intervalsDate(unlogged.updatedAt, isCloseTo: 1_795_156_873.482), "fields it has no property for are ignored")
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
        #expect(try await intervals.wellness.day(day.adding(days: 1))?.ctl == 52.9)
    }

    // MARK: - What the models write

    @Test func anActivityIsWrittenWithEveryKeyAndNullsForUnknownValues() throws {
        let (intervals, _) = try fixtureClient()
        let decoder = intervals.client.configuration.decoder
        let encoder = intervals.client.configuration.encoder
        let activities = try decoder.decode([Activity].self, from: IntervalsFixture.data("activities.json"))
        #expect(try IntervalsJSONKeys.ofArray(encoder.encode(activities)) == IntervalsFixture.elementKeys("activities.json"))
        let minimal = try decoder.decode(Activity.self, from: IntervalsFixture.data("activity-minimal.json"))
        #expect(try IntervalsJSONKeys.ofObject(encoder.encode(minimal)) == IntervalsFixture.objectKeys("activity.json"))
    }

    @Test func aWellnessRecordIsWrittenWithOnlyTheFieldsItSetsSoAPutNeverClearsADay() throws {
        let (intervals, _) = try fixtureClient()
        let decoder = intervals.client.configuration.decoder
        let encoder = intervals.client.configuration.encoder
        let records = try decoder.decode([Wellness].self, from: IntervalsFixture.data("wellness.json"))
        let fixtureKeys = try IntervalsFixture.elementKeys("wellness.json")
        #expect(try IntervalsJSONKeys.ofObject(encoder.encode(records[0])) == fixtureKeys[0])
        #expect(try IntervalsJSONKeys.ofObject(encoder.encode(records[1])) == ["id", "ctl", "atl", "updated"])
        var weighIn = try Wellness(id: #require(CalendarDay("2026-11-21")))
        weighIn.weight = 70.2
        #expect(try IntervalsJSONKeys.ofObject(encoder.encode(weighIn)) == ["id", "weight"])
    }

    // MARK: - Paths, queries and the base URL

    @Test func theEndpointsAreIntervalsAthleteScopedPathsUnderTheAPIv1Root() throws {
        let oldest = try #require(CalendarDay("2026-11-01"))
        let newest = try #require(CalendarDay("2026-11-20"))
        #expect(IntervalsEndpoints.root.path == "/api/v1")
        #expect(IntervalsEndpoints.currentAthlete == "0")
        let list = IntervalsEndpoints.activities(oldest: oldest, newest: newest, limit: 50)
        #expect(list.path == "/athlete/0/activities")
        #expect(list.query.map { "\($0.name)=\($0.value ?? "")" } == ["oldest=2026-11-01", "newest=2026-11-20", "limit=50"])
        #expect(IntervalsEndpoints.activities(oldest: oldest).query.map(\.name) == ["oldest"], "oldest is the one the service requires")
        #expect(IntervalsEndpoints.activity(id: "i1119").path == "/activity/i1119")
        #expect(IntervalsEndpoints.activity(id: "a/b").path == "/activity/a%2Fb", "an id stays one segment")
        #expect(IntervalsEndpoints.activities(athlete: "i9/x", oldest: oldest).path == "/athlete/i9%2Fx/activities")
        #expect(IntervalsEndpoints.wellness(oldest: oldest, newest: newest).path == "/athlete/0/wellness")
        #expect(IntervalsEndpoints.wellness(day: newest).path == "/athlete/0/wellness/2026-11-20")
        let update = IntervalsEndpoints.updateActivity(id: "i1119", ActivityUpdate(name: "x"))
        #expect(update.method == .put)
        #expect(update.path == "/activity/i1119")
        #expect(update.options.invalidates == ["/athlete/0/activities"], "a save drops the athlete's cached lists")
        let day = IntervalsEndpoints.updateWellness(Wellness(id: newest))
        #expect(day.method == .put)
        #expect(day.path == "/athlete/0/wellness/2026-11-20")
        let bulk = IntervalsEndpoints.updateWellnessBulk([Wellness(id: oldest), Wellness(id: newest)])
        #expect(bulk.method == .put)
        #expect(bulk.path == "/athlete/0/wellness-bulk")
        for write in [day.options, bulk.options] {
            #expect(write.isQueueable)
            #expect(write.idempotencyKey != nil)
            #expect(write.bodyIsPersonalData, "wellness is health data: never logged")
            #expect(write.invalidates == ["/athlete/0/wellness"])
        }
    }

    @Test(arguments: ["https://intervals.icu", "https://intervals.icu/", "https://intervals.icu/api/v1", "https://intervals.icu/api/v1/"])
    func everyPathIsSentUnderAPIv1WhicheverFormTheBaseURLTakes(baseURL: String) async throws {
        let (intervals, transport) = try fixtureClient(baseURL: baseURL)
        #expect(intervals.client.configuration.baseURL.absoluteString == "https://intervals.icu/api/v1")
        let day = try #require(CalendarDay("2026-11-19"))
        _ = try await intervals.activities.list()
        _ = try await intervals.activities.get(id: "i1119")
        _ = try await intervals.wellness.range(from: day, through: day.adding(days: 1))
        _ = try await intervals.wellness.day(day)
        #expect(transport.requests.map { $0.request.path ?? "" } == [
            "/api/v1/athlete/0/activities?oldest=2026-08-23&newest=2026-11-20",
            "/api/v1/activity/i1119",
            "/api/v1/athlete/0/wellness?oldest=2026-11-19&newest=2026-11-20",
            "/api/v1/athlete/0/wellness/2026-11-19",
        ])
        #expect(transport.requests.allSatisfy { $0.request.method == .get })
    }

    @Test func aNamedAthleteIsInEveryPathOfItsLists() async throws {
        let (intervals, transport) = try fixtureClient(athlete: "i4242")
        var activity = try await intervals.activities.get(id: "i1119")
        activity.name = "Coach's rename"
        _ = try await intervals.activities.save(activity)
        _ = try await intervals.activities.list()
        try await intervals.wellness.save([Wellness(id: #require(CalendarDay("2026-11-19")))])
        #expect(transport.requests.map { $0.request.path?.split(separator: "?").first.map(String.init) ?? "" } == [
            "/api/v1/activity/i1119", "/api/v1/activity/i1119", "/api/v1/athlete/i4242/activities", "/api/v1/athlete/i4242/wellness-bulk",
        ])
    }

    @Test func theListReadsTheLastNinetyDaysOnTheClientsClockByDefault() async throws {
        let (intervals, transport) = try fixtureClient()
        _ = try await intervals.activities.list()
        #expect(transport.requests.first?.request.path == "/api/v1/athlete/0/activities?oldest=2026-08-23&newest=2026-11-20")
        let narrower = IntervalsClient(client: intervals.client, listDays: 7, listLimit: 20)
        transport.reset()
        _ = try await narrower.activities.list()
        #expect(transport.requests.first?.request.path == "/api/v1/athlete/0/activities?oldest=2026-11-14&newest=2026-11-20&limit=20")
    }

    @Test func theSeedsIllustrativePathsAreNotSent() async throws {
        let (intervals, transport) = try fixtureClient()
        let day = try #require(CalendarDay("2026-11-19"))
        _ = try await intervals.activities.list()
        _ = try await intervals.wellness.range(from: day, through: day)
        let paths = transport.requests.compactMap(\.request.path)
        #expect(!paths.contains { $0.hasPrefix("/api/v1/activities") || $0.hasPrefix("/api/v1/wellness") }, "the real service answers those with 404")
    }

    @Test func aBaseURLSetWhileConfiguringIsNormalisedToo() throws {
        let server = try #require(URL(string: "https://example.test"))
        let intervals = IntervalsClient(baseURL: server, transport: MockTransport(always: .status(.ok))) {
            $0.baseURL = URL(string: "https://eu.intervals.test/")!
        }
        #expect(intervals.client.configuration.baseURL.absoluteString == "https://eu.intervals.test/api/v1")
    }

    // MARK: - Writes

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
        #expect(sent.request.path == "/api/v1/activity/i1119")
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

    @Test func wellnessIsWrittenByDayAndManyDaysInOneBulkCall() async throws {
        let (intervals, transport) = try fixtureClient()
        var today = try Wellness(id: #require(CalendarDay("2026-11-20")))
        today.weight = 70.4
        today.mood = 1
        let stored = try await intervals.wellness.save(today)
        #expect(stored.weight == 70.4)
        var yesterday = try Wellness(id: #require(CalendarDay("2026-11-19")))
        yesterday.restingHeartRate = 48
        try await intervals.wellness.save([yesterday, today])

        let (single, bulk) = (transport.requests[0], transport.requests[1])
        #expect(single.request.method == .put)
        #expect(single.request.path == "/api/v1/athlete/0/wellness/2026-11-20")
        #expect(try IntervalsJSONKeys.ofObject(single.body ?? Data()) == ["id", "weight", "mood"])
        #expect(bulk.request.method == .put)
        #expect(bulk.request.path == "/api/v1/athlete/0/wellness-bulk")
        #expect(try IntervalsJSONKeys.ofArray(bulk.body ?? Data()) == [["id", "restingHR"], ["id", "weight", "mood"]])
        #expect(single.request.headerFields[.idempotencyKey] != bulk.request.headerFields[.idempotencyKey])
    }

    // MARK: - Authentication

    @Test func anAPIKeyIsSentAsBasicWithTheUserNameAPIKEY() async throws {
        let (intervals, transport) = try fixtureClient(auth: .apiKey("s3cret-key"))
        _ = try await intervals.activities.list()
        _ = try await intervals.activities.get(id: "i1119")
        let expected = "Basic " + Data("API_KEY:s3cret-key".utf8).base64EncodedString()
        #expect(transport.requests.count == 2)
        #expect(transport.requests.allSatisfy { $0.request.headerFields[.authorization] == expected })
    }

    @Test func aRefusedAPIKeyEndsInUnauthorizedWithoutARefreshCall() async throws {
        let transport = MockTransport { _, _ in .status(.unauthorized) }
        let intervals = IntervalsClient(baseURL: URL(string: "https://intervals.icu")!, transport: transport, auth: .apiKey("revoked"))
        let error = await courierError { _ = try await intervals.activities.get(id: "i1") }
        #expect(error?.code == .unauthorized)
        #expect(transport.requests.allSatisfy { $0.request.path == "/api/v1/activity/i1" }, "an API key has nothing to refresh")
    }

    @Test func anExpiredOAuthTokenIsRefreshedOnceWithTheRotatingRefreshTokenAndTheCallReplayed() async throws {
        let transport = MockTransport { request, _ in
            if request.path == "/api/oauth/token" {
                return .json(#"{"access_token": "access-2", "token_type": "Bearer", "expires_in": 3600, "refresh_token": "refresh-2", "scope": "ACTIVITY:READ", "athlete": {"id": "i77", "name": "Ada"}}"#)
            }
            guard request.headerFields[.authorization] == "Bearer access-2" else {
                return MockResponse(status: .unauthorized, headers: [.wwwAuthenticate: #"Bearer error="invalid_token""#])
            }
            return MockResponse(status: .ok, headers: [.contentType: "application/json"], body: try IntervalsFixture.data("activity.json"))
        }
        let store = InMemoryCredentialStore(Credential(accessToken: "access-1", refreshToken: "refresh-1", accountID: "i77"))
        let intervals = IntervalsClient(
            baseURL: URL(string: "https://intervals.icu/api/v1")!, transport: transport,
            auth: .oauth(store: store, clientID: "courier app", clientSecret: "s&cret")
        )
        async let first = intervals.activities.get(id: "i1119")
        async let second = intervals.client.value(for: IntervalsEndpoints.activity(id: "i1116"))
        _ = try await (first, second)

        let refreshes = transport.requests.filter { $0.request.path == "/api/oauth/token" }
        #expect(refreshes.count == 1, "two calls met the expired token; one refresh")
        let refresh = try #require(refreshes.first)
        #expect(refresh.request.method == .post)
        #expect(refresh.request.headerFields[.authorization] == nil, "the token endpoint is not signed with the expired token")
        #expect(refresh.request.headerFields[.contentType] == "application/x-www-form-urlencoded")
        #expect(String(decoding: refresh.body ?? Data(), as: UTF8.self) == "grant_type=refresh_token&refresh_token=refresh-1&client_id=courier%20app&client_secret=s%26cret")
        let saved = try #require(try await store.load())
        #expect(saved.accessToken == "access-2")
        #expect(saved.refreshToken == "refresh-2", "the rotated refresh token is stored")
        #expect(saved.accountID == "i77")
    }
}
