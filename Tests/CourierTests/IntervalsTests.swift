import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import HTTPTypes
import IntervalsAPI
import IntervalsCore
import ReferenceServer
import Testing

/// An intervals client on the reference server, made from the server's origin (the client
/// adds `/api/v1`), signed as the demo user, with a memory cache on an injected clock.
private func withIntervals(
    configure: (inout ClientConfiguration) -> Void = { _ in },
    _ body: (IntervalsClient, ReferenceServer, ManualClock) async throws -> Void
) async throws {
    try await withRunningServer { server, url in
        let token = try await demoToken(server)
        let clock = ManualClock()
        let transport = AsyncHTTPClientTransport()
        do {
            let intervals = IntervalsClient(baseURL: url, transport: transport) { configuration in
                configuration.cache = HTTPCache(storage: MemoryCacheStorage(), clock: clock)
                configuration.middleware.append(BearerTokenMiddleware(token: token))
                configure(&configuration)
            }
            try await body(intervals, server, clock)
            try await transport.shutdown()
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }
}

@Suite("Intervals repositories against the reference server")
struct IntervalsRepositoryTests {
    @Test func listAndGetAreServedFromTheCacheAfterTheFirstRead() async throws {
        try await withIntervals { intervals, server, _ in
            let first = try await intervals.activities.list()
            let second = try await intervals.activities.list()
            #expect(first == second)
            #expect(!first.isEmpty)
            let starts = first.compactMap(\.startDate)
            #expect(starts.count == first.count)
            #expect(starts == starts.sorted(by: >), "newest first")
            let one = try await intervals.activities.get(id: first[0].id)
            _ = try await intervals.activities.get(id: first[0].id)
            #expect(one == first[0])
            #expect(await server.requestCount(method: "GET", path: "/api/v1/activities") == 1)
            #expect(await server.requestCount(method: "GET", path: "/api/v1/activities/\(one.id)") == 1)
        }
    }

    @Test func activitiesAreCacheFirstSoAStaleCopyIsServedWithoutAskingTheServer() async throws {
        try await withIntervals { intervals, server, clock in
            let list = try await intervals.activities.list()
            let one = try await intervals.activities.get(id: list[0].id)
            clock.advance(by: .seconds(3_600))
            #expect(try await intervals.activities.list() == list)
            #expect(try await intervals.activities.get(id: one.id) == one)
            #expect(await server.requestCount(method: "GET", path: "/api/v1/activities") == 1, "an hour past max-age=300, still no second call")
            #expect(await server.requestCount(method: "GET", path: "/api/v1/activities/\(one.id)") == 1)
        }
    }

    @Test func aStaleListIsRevalidatedAndThe304KeepsTheStoredBody() async throws {
        try await withIntervals { intervals, server, clock in
            let list = IntervalsEndpoints.activities(limit: 10)
            let first = try await intervals.client.send(list)
            #expect(first.headers[.eTag] != nil)
            #expect(first.headers[.lastModified] != nil)
            clock.advance(by: .seconds(301))
            let second = try await intervals.client.send(list)
            #expect(second.metrics.cacheStatus == .revalidated)
            #expect(second.value == first.value)
            #expect(await server.requestCount(method: "GET", path: "/api/v1/activities") == 2)
        }
    }

    @Test func ifModifiedSinceAloneEarnsA304() async throws {
        try await withIntervals { intervals, _, _ in
            let day = try #require(CalendarDay("2026-11-01"))
            var request = IntervalsEndpoints.wellness(start: day, end: day.adding(days: 6)).decoding(Data.self)
            request.options.cachePolicy = .bypass
            let first = try await intervals.client.send(request)
            let lastModified = try #require(first.headers[.lastModified])
            var configuration = intervals.client.configuration
            configuration.acceptsStatus = { _ in true }
            let transport = AsyncHTTPClientTransport()
            do {
                let plain = APIClient(configuration: configuration, transport: transport)
                let conditional = try await plain.send(request.header(.ifModifiedSince, lastModified))
                let older = try await plain.send(request.header(.ifModifiedSince, "Sun, 01 Nov 2026 00:00:00 GMT"))
                #expect(conditional.status == .notModified)
                #expect(conditional.data.isEmpty)
                #expect(older.status == .ok, "changed since then")
                try await transport.shutdown()
            } catch {
                try? await transport.shutdown()
                throw error
            }
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
            #expect(await server.requestCount(method: "GET", path: "/api/v1/activities/\(activity.id)") == 2, "the PUT dropped the stored copy")
            #expect(await server.requestCount(method: "GET", path: "/api/v1/activities") == 2, "and the stored list, which cache-first would serve forever")
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
            #expect(await server.requestCount(method: "GET", path: "/api/v1/wellness") == 2, "every read asks the server")

            server.faults.inject(.status(503), count: 1, method: "GET", path: "/api/v1/wellness")
            let duringOutage = try await intervals.wellness.range(from: start, through: end)
            #expect(duringOutage == week, "the stored copy stands in for the failed read")
            #expect(await server.requestCount(method: "GET", path: "/api/v1/wellness") == 3)
        }
    }

    @Test func aReversedOrBadRangeIsABadRequest() async throws {
        try await withIntervals { intervals, _, _ in
            let start = try #require(CalendarDay("2026-11-02"))
            let reversed = await courierError { _ = try await intervals.wellness.range(from: start, through: start.adding(days: -1)) }
            #expect(reversed?.status?.code == 400)
            let tooLong = await courierError { _ = try await intervals.wellness.range(from: start, through: start.adding(days: 400)) }
            #expect(tooLong?.status?.code == 400)
            let missing = await courierError { _ = try await intervals.activities.get(id: "i0") }
            #expect(missing?.code == .notFound)
        }
    }

    @Test func eachUserHasTheirOwnDeterministicHistory() async throws {
        try await withRunningServer { server, url in
            let transport = AsyncHTTPClientTransport()
            func activities(token: String) async throws -> [Activity] {
                let intervals = IntervalsClient(baseURL: url, transport: transport) {
                    $0.middleware.append(BearerTokenMiddleware(token: token))
                }
                return try await intervals.activities.list()
            }
            do {
                let demo = try await activities(token: try await demoToken(server))
                let demoAgain = try await activities(token: try await demoToken(server))
                #expect(demo == demoAgain)
                #expect(demo.count > 50, "about four months at five workouts a week")
                try await transport.shutdown()
            } catch {
                try? await transport.shutdown()
                throw error
            }
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
