import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import HTTPTypes
import IntervalsAPI
import IntervalsCore
import ReferenceServer
import Testing

/// The reference server's intervals paths, as its request counter names them.
private enum IntervalsPath {
    static let activities = "/api/v1/athlete/0/activities"
    static let wellness = "/api/v1/athlete/0/wellness"
    static func activity(_ id: String) -> String { "/api/v1/activity/\(id)" }
}

/// An intervals client on the reference server, made from the server's origin (the client
/// adds `/api/v1`), signed with the demo athlete's API key unless `auth` says otherwise, with a
/// memory cache on a manual clock. "Today" is the last day of the server's synthetic history.
private func withIntervals(
    _ kind: TransportKind = .asyncHTTPClient,
    auth: ((ReferenceServer) async throws -> IntervalsAuth)? = nil,
    configure: @escaping (inout ClientConfiguration) -> Void = { _ in },
    _ body: (IntervalsClient, ReferenceServer, ManualClock) async throws -> Void
) async throws {
    try await withRunningServer { server, url in
        let clock = ManualClock()
        let auth = try await auth?(server) ?? .apiKey(ReferenceServerConfiguration().demoAPIKey)
        try await withTransport(kind) { transport in
            let intervals = IntervalsClient(baseURL: url, transport: transport, auth: auth) { configuration in
                configuration.cache = HTTPCache(storage: MemoryCacheStorage(), clock: clock)
                configuration.clock = FixedDateClock.lastIntervalsDay
                configure(&configuration)
            }
            try await body(intervals, server, clock)
        }
    }
}

@Suite("Intervals repositories against the reference server")
struct IntervalsRepositoryTests {
    @Test(arguments: TransportKind.allCases)
    func listAndGetAreServedFromTheCacheAfterTheFirstRead(kind: TransportKind) async throws {
        try await withIntervals(kind) { intervals, server, _ in
            let first = try await intervals.activities.list()
            let second = try await intervals.activities.list()
            #expect(first == second)
            #expect(first.count > 40, "ninety days at five workouts a week")
            let starts = first.compactMap(\.startDate)
            #expect(starts.count == first.count)
            #expect(starts == starts.sorted(by: >), "newest first")
            let one = try await intervals.activities.get(id: first[0].id)
            _ = try await intervals.activities.get(id: first[0].id)
            #expect(one == first[0])
            #expect(await server.requestCount(method: "GET", path: IntervalsPath.activities) == 1)
            #expect(await server.requestCount(method: "GET", path: IntervalsPath.activity(one.id)) == 1)
        }
    }

    @Test func activitiesAreCacheFirstSoAStaleCopyIsServedWithoutAskingTheServer() async throws {
        try await withIntervals { intervals, server, clock in
            let list = try await intervals.activities.list()
            let one = try await intervals.activities.get(id: list[0].id)
            clock.advance(by: .seconds(3_600))
            #expect(try await intervals.activities.list() == list)
            #expect(try await intervals.activities.get(id: one.id) == one)
            #expect(await server.requestCount(method: "GET", path: IntervalsPath.activities) == 1, "an hour past max-age=300, still no second call")
            #expect(await server.requestCount(method: "GET", path: IntervalsPath.activity(one.id)) == 1)
        }
    }

    @Test func aStaleListIsRevalidatedAndThe304KeepsTheStoredBody() async throws {
        try await withIntervals { intervals, server, clock in
            let list = try IntervalsEndpoints.activities(oldest: #require(CalendarDay("2026-11-01")), limit: 10)
            let first = try await intervals.client.send(list)
            #expect(first.headers[.eTag] != nil)
            #expect(first.headers[.lastModified] != nil)
            clock.advance(by: .seconds(301))
            let second = try await intervals.client.send(list)
            #expect(second.metrics.cacheStatus == .revalidated)
            #expect(second.value == first.value)
            #expect(await server.requestCount(method: "GET", path: IntervalsPath.activities) == 2)
        }
    }

    @Test func savingAnActivityInvalidatesItsCachedCopyAndTheCachedList() async throws {
        try await withIntervals { intervals, server, _ in
            var activity = try await intervals.activities.list()[0]
            _ = try await intervals.activities.get(id: activity.id)
            activity.name = "Renamed by the test"
            let saved = try await intervals.activities.save(activity)
            let reread = try await intervals.activities.get(id: activity.id)
            let relisted = try await intervals.activities.list()
            #expect(saved.name == "Renamed by the test")
            #expect(reread.name == "Renamed by the test")
            #expect(relisted.first { $0.id == activity.id }?.name == "Renamed by the test")
            #expect(await server.requestCount(method: "GET", path: IntervalsPath.activity(activity.id)) == 2, "the PUT dropped the stored copy")
            #expect(await server.requestCount(method: "GET", path: IntervalsPath.activities) == 2, "and the stored list, which cache-first would serve forever")
        }
    }

    @Test func wellnessIsNetworkFirstAndFallsBackToTheStoredCopyWhenTheServerFails() async throws {
        try await withIntervals(configure: { $0.retryPolicy = .none }) { intervals, server, _ in
            let start = try #require(CalendarDay("2026-10-26"))
            let end = try #require(CalendarDay("2026-11-01"))
            let week = try await intervals.wellness.range(from: start, through: end)
            #expect(week.map(\.id) == start.through(end))
            #expect(week.allSatisfy { ($0.ctl ?? 0) > 0 && ($0.atl ?? 0) > 0 })
            let again = try await intervals.wellness.range(from: start, through: end)
            #expect(again == week)
            #expect(await server.requestCount(method: "GET", path: IntervalsPath.wellness) == 2, "every read asks the server")

            server.faults.inject(.status(503), count: 1, method: "GET", path: IntervalsPath.wellness)
            let duringOutage = try await intervals.wellness.range(from: start, through: end)
            #expect(duringOutage == week, "the stored copy stands in for the failed read")
            #expect(await server.requestCount(method: "GET", path: IntervalsPath.wellness) == 3)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func wellnessIsWrittenByDayAndInBulkAndTheWritesDropTheStoredRange(kind: TransportKind) async throws {
        try await withIntervals(kind, configure: { $0.retryPolicy = .none }) { intervals, server, _ in
            let last = try #require(CalendarDay("2026-11-20"))
            let before = try #require(try await intervals.wellness.day(last))
            var weighIn = Wellness(id: last)
            weighIn.weight = 69.9
            weighIn.soreness = 3
            let stored = try await intervals.wellness.save(weighIn)
            #expect(stored.weight == 69.9)
            #expect(stored.soreness == 3)
            #expect(stored.ctl == before.ctl, "a PUT changes only the fields it sends")

            var first = Wellness(id: last.adding(days: 1))
            first.restingHeartRate = 47
            var second = Wellness(id: last.adding(days: 2))
            second.sleepSeconds = 28_800
            try await intervals.wellness.save([first, second])
            let range = try await intervals.wellness.range(from: last, through: last.adding(days: 2))
            #expect(range.map(\.id) == [last, last.adding(days: 1), last.adding(days: 2)])
            #expect(range[0].weight == 69.9)
            #expect(range[1].restingHeartRate == 47)
            #expect(range[2].sleepSeconds == 28_800)
            #expect(await server.requestCount(method: "PUT", path: "/api/v1/athlete/0/wellness-bulk") == 1, "two days, one call")
            #expect(await server.requestCount(method: "PUT", path: "/api/v1/athlete/0/wellness/\(last)") == 1)
        }
    }

    @Test func aBadRangeOrAnotherAthleteOrAMissingActivityIsATypedError() async throws {
        try await withIntervals { intervals, _, _ in
            let start = try #require(CalendarDay("2026-11-02"))
            let reversed = await courierError { _ = try await intervals.wellness.range(from: start, through: start.adding(days: -1)) }
            #expect(reversed?.status?.code == 400)
            let tooLong = await courierError { _ = try await intervals.wellness.range(from: start, through: start.adding(days: 400)) }
            #expect(tooLong?.status?.code == 400)
            let missing = await courierError { _ = try await intervals.activities.get(id: "i0") }
            #expect(missing?.code == .notFound)
            let stranger = await courierError { _ = try await intervals.client.value(for: IntervalsEndpoints.activities(athlete: "i999999", oldest: start)) }
            #expect(stranger?.code == .forbidden)
        }
    }

    @Test func theSeedsIllustrativePathsAreNotFoundAsOnTheRealService() async throws {
        try await withIntervals { intervals, _, _ in
            for path in ["/activities", "/wellness?start=2026-11-01T00:00:00Z&end=2026-11-02T00:00:00Z"] {
                let error = await courierError { _ = try await intervals.client.value(for: Request<Data>(path: path)) }
                #expect(error?.code == .notFound, "\(path)")
            }
        }
    }

    @Test func eachAthleteHasTheirOwnDeterministicHistory() async throws {
        try await withRunningServer { server, url in
            try await withTransport { transport in
                func activities(key: String) async throws -> [Activity] {
                    let intervals = IntervalsClient(baseURL: url, transport: transport, auth: .apiKey(key)) { $0.clock = FixedDateClock.lastIntervalsDay }
                    return try await intervals.activities(from: CalendarDay("2026-08-01")!, through: CalendarDay("2026-11-20")!)
                }
                let demo = try await activities(key: ReferenceServerConfiguration().demoAPIKey)
                let demoAgain = try await activities(key: try await server.issueAPIKey(email: ReferenceServerConfiguration().demoEmail))
                #expect(demo == demoAgain, "a second key of the same athlete reads the same history")
                #expect(demo.count > 50, "about four months at five workouts a week")
            }
        }
    }
}

@Suite("Intervals authentication against the reference server")
struct IntervalsAuthenticationTests {
    @Test(arguments: TransportKind.allCases)
    func aWrongAPIKeyIsRefusedWith401(kind: TransportKind) async throws {
        try await withIntervals(kind, auth: { _ in .apiKey("not-a-key") }) { intervals, _, _ in
            let error = await courierError { _ = try await intervals.activities.list() }
            #expect(error?.code == .unauthorized)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func anOAuthClientRefreshesOnceAcrossConcurrentCallsAndStoresTheRotatedToken(kind: TransportKind) async throws {
        let store = InMemoryCredentialStore()
        try await withIntervals(kind, auth: { server in
            let tokens = try await server.issueTokens(email: ReferenceServerConfiguration().demoEmail)
            try await store.save(Credential(accessToken: tokens.accessToken, refreshToken: tokens.refreshToken))
            return .oauth(store: store)
        }) { intervals, server, _ in
            let before = try #require(try await store.load())
            let wanted = try await intervals.activities.list().prefix(6).map(\.id)
            await server.expireAccessTokens()
            await server.resetCounters()
            let read = try await withThrowingTaskGroup(of: Activity.self) { group in
                for id in wanted {
                    group.addTask { try await intervals.client.value(for: IntervalsEndpoints.activity(id: id)) }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1.id) }
            }
            #expect(read == Set(wanted), "every call met the expired token and was replayed once refreshed")
            #expect(await server.requestCount(method: "POST", path: "/api/oauth/token") == 1, "one refresh for every call that met the expired token")
            let after = try #require(try await store.load())
            #expect(after.refreshToken != before.refreshToken, "the rotated refresh token is stored")
            #expect(after.accountID?.hasPrefix("i") == true, "the athlete becomes the credential's account")

            // The refresh token used once is spent: the service refuses it.
            let unsigned = APIClient(configuration: ClientConfiguration(baseURL: IntervalsEndpoints.root.serverURL(for: intervals.client.configuration.baseURL)), transport: kind.make())
            let reuse = await courierError {
                _ = try await IntervalsOAuthAuthenticator(client: unsigned).refresh(before)
            }
            #expect(reuse?.status?.code == 400)
            #expect(reuse?.serverMessage?.contains("refresh token") == true)
            await kind.shutdown(unsigned.transport)
        }
    }
}

@Suite("Calendar days")
struct CalendarDayTests {
    @Test func parsesOnlyRealDatesInTheFixedFormat() {
        #expect(CalendarDay("2024-02-29")?.description == "2024-02-29")
        #expect(CalendarDay("2026-02-29") == nil, "not a leap year")
        #expect(CalendarDay("2026-1-01") == nil)
        #expect(CalendarDay("2026-13-01") == nil)
        #expect(CalendarDay("2026-11-01T00:00:00Z") == nil)
        #expect(CalendarDay("+026-11-01") == nil)
    }

    @Test func walksAcrossMonthAndYearEnds() throws {
        let start = try #require(CalendarDay("2026-12-30"))
        #expect(start.through(start.adding(days: 3)).map(\.description) == ["2026-12-30", "2026-12-31", "2027-01-01", "2027-01-02"])
        #expect(start.through(start.adding(days: -1)).isEmpty)
        #expect(CalendarDay(start.startDate) == start)
    }

    @Test func roundTripsThroughJSONAsAString() throws {
        let day = try #require(CalendarDay("2026-11-22"))
        let data = try JSONEncoder().encode([day])
        #expect(String(decoding: data, as: UTF8.self) == #"["2026-11-22"]"#)
        #expect(try JSONDecoder().decode([CalendarDay].self, from: data) == [day])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([CalendarDay].self, from: Data(#"["22/11/2026"]"#.utf8)) }
    }
}
