import Courier
import CourierTesting
import Synchronization
import Foundation
import HTTPTypes
import Testing

/// Provider quotas as pure decisions: the sliding windows of a ledger, and what servers
/// announce of their limits (issue 42's first part; the chain's stage and shared storage come next).
@Suite("Quotas")
struct QuotaTests {
    private static let start = Date(timeIntervalSince1970: 1_795_000_000)
    private static func at(_ seconds: Double) -> Date { start.addingTimeInterval(seconds) }

    @Test func aFullWindowSaysWhenItsOldestCallLeavesIt() {
        var ledger = QuotaLedger(windows: [QuotaWindow(limit: 3, length: .seconds(10))])
        #expect(ledger.admit(at: Self.at(0)) == .admitted)
        #expect(ledger.admit(at: Self.at(1)) == .admitted)
        #expect(ledger.admit(at: Self.at(2)) == .admitted)
        #expect(ledger.admit(at: Self.at(3)) == .wait(until: Self.at(10)))
        #expect(ledger.used(at: Self.at(3)) == [3], "a call told to wait is not counted")
        #expect(ledger.admit(at: Self.at(10)) == .admitted)
        #expect(ledger.admit(at: Self.at(10.5)) == .wait(until: Self.at(11)))
    }

    @Test func aCallThatWaitedAfterItsAdmissionHoldsItsPlaceUntilItEnded() {
        var ledger = QuotaLedger(windows: [QuotaWindow(limit: 2, length: .seconds(10))])
        #expect(ledger.admit(at: Self.at(0)) == .admitted)
        #expect(ledger.admit(at: Self.at(0)) == .admitted)
        // The first call waited for a connection and was answered at 4 s: the server may
        // have seen it as late as that, so its place frees at 14 s, not 10 s.
        ledger.settle(admittedAt: Self.at(0), at: Self.at(4))
        #expect(ledger.admit(at: Self.at(5)) == .wait(until: Self.at(10)))
        #expect(ledger.admit(at: Self.at(10)) == .admitted)
        #expect(ledger.admit(at: Self.at(11)) == .wait(until: Self.at(14)))
        ledger.settle(admittedAt: Self.at(20), at: Self.at(19))
        #expect(ledger.used(at: Self.at(11)) == [2], "a settlement that names no admitted call changes nothing")
    }

    @Test func aCallAdmittedAtADateBeforeASettledOneIsCountedInOrder() {
        var ledger = QuotaLedger(windows: [QuotaWindow(limit: 2, length: .seconds(10))])
        #expect(ledger.admit(at: Self.at(0)) == .admitted)
        ledger.settle(admittedAt: Self.at(0), at: Self.at(6))
        // Another process read its clock at 5 s, before the first call's answer came at 6 s.
        #expect(ledger.admit(at: Self.at(5)) == .admitted)
        // The window holds calls at 5 s and 6 s: the next turn is at 15 s, when the one of 5 s leaves.
        #expect(ledger.admit(at: Self.at(7)) == .wait(until: Self.at(15)))
    }

    @Test func theStrictestWindowDecides() {
        var ledger = QuotaLedger(windows: [QuotaWindow(limit: 2, length: .seconds(1)), QuotaWindow(limit: 3, length: .seconds(60))])
        #expect(ledger.admit(at: Self.at(0)) == .admitted)
        #expect(ledger.admit(at: Self.at(0.1)) == .admitted)
        #expect(ledger.admit(at: Self.at(0.2)) == .wait(until: Self.at(1)))
        #expect(ledger.admit(at: Self.at(1)) == .admitted)
        #expect(ledger.admit(at: Self.at(1.5)) == .wait(until: Self.at(60)), "the minute's third call is spent")
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func noStretchOfAWindowEverHoldsMoreThanItsLimitAndAFullWindowIsUsedWhole(seed: UInt64) {
        let windows = [QuotaWindow(limit: 10, length: .seconds(15)), QuotaWindow(limit: 40, length: .seconds(120))]
        var ledger = QuotaLedger(windows: windows)
        var generator = SeededGenerator(seed: seed)
        var now = Self.at(0)
        var sent: [Date] = []
        for _ in 0..<300 {
            now = now.addingTimeInterval(Double.random(in: 0...2, using: &generator))
            while case .wait(let until) = ledger.admit(at: now) { now = until }
            sent.append(now)
        }
        for window in windows {
            let length = window.length.timeInterval
            for (index, call) in sent.enumerated() {
                let inWindow = sent[index...].prefix { $0 < call.addingTimeInterval(length) }.count
                #expect(inWindow <= window.limit, "\(inWindow) calls in \(length) s from \(call.timeIntervalSince(Self.start))")
            }
        }
        // Calls that waited went at the first moment they could: the day's busiest 120 s hold 40.
        let busiest = sent.indices.map { index in sent[index...].prefix { $0 < sent[index].addingTimeInterval(120) }.count }.max()
        #expect(busiest == 40)
    }

    @Test func whatTheServerCountedBeyondTheLedgerIsCountedAndItsLimitsReplaceTheConfiguredOnes() {
        var ledger = QuotaLedger(windows: [QuotaWindow(limit: 100, length: .seconds(900)), QuotaWindow(limit: 1_000, length: .seconds(86_400))])
        #expect(ledger.admit(at: Self.at(0)) == .admitted)
        let strava = QuotaAnnouncement(windows: [
            .init(limit: 90, length: .seconds(900), used: 88), .init(limit: 1_000, length: .seconds(86_400), used: 300),
        ])
        ledger.correct(with: strava, at: Self.at(1))
        #expect(ledger.windows.map(\.limit) == [90, 1_000])
        #expect(ledger.used(at: Self.at(1)) == [88, 300])
        #expect(ledger.admit(at: Self.at(2)) == .admitted)
        #expect(ledger.admit(at: Self.at(3)) == .admitted)
        #expect(ledger.admit(at: Self.at(4)) == .wait(until: Self.at(900)), "the first call leaves the window first")
    }

    @Test func aServersHoldOutlastsTheWindows() {
        var ledger = QuotaLedger(windows: [QuotaWindow(limit: 100, length: .seconds(900))])
        ledger.correct(with: QuotaAnnouncement(resumeAt: Self.at(30)), at: Self.at(0))
        #expect(ledger.admit(at: Self.at(1)) == .wait(until: Self.at(30)))
        #expect(ledger.admit(at: Self.at(30)) == .admitted)
        #expect(ledger.blockedUntil == nil)
    }

    // MARK: - What servers announce

    @Test func stravasTwoWindowsAreReadAndAFullOneHoldsCallsToTheEndOfItsQuarterHour() throws {
        let now = Date(timeIntervalSince1970: 1_795_000_000 + 120) // 520 s into its quarter hour (which began at 1_794_999_600)
        let open = try #require(QuotaAnnouncement.read(status: 200, fields: [
            HTTPField.Name("X-RateLimit-Limit")!: "100,1000", HTTPField.Name("X-RateLimit-Usage")!: "12,345",
        ], now: now))
        #expect(open.windows == [.init(limit: 100, length: .seconds(900), used: 12), .init(limit: 1_000, length: .seconds(86_400), used: 345)])
        #expect(open.resumeAt == nil)
        let full = try #require(QuotaAnnouncement.read(status: 429, fields: [
            HTTPField.Name("X-RateLimit-Limit")!: "100,1000", HTTPField.Name("X-RateLimit-Usage")!: "100,400",
        ], now: now))
        #expect(full.resumeAt == Date(timeIntervalSince1970: 1_795_000_000 - 1_795_000_000.truncatingRemainder(dividingBy: 900) + 900))
    }

    @Test func githubsRemainingAndResetAreRead() throws {
        let now = Self.at(0)
        let left = try #require(QuotaAnnouncement.read(status: 200, fields: [
            HTTPField.Name("X-RateLimit-Limit")!: "5000", HTTPField.Name("X-RateLimit-Remaining")!: "4990", HTTPField.Name("X-RateLimit-Reset")!: "1795003600",
        ], now: now))
        #expect(left.windows == [.init(limit: 5_000, length: nil, used: 10)])
        #expect(left.resumeAt == nil, "calls remain")
        let spent = try #require(QuotaAnnouncement.read(status: 403, fields: [
            HTTPField.Name("X-RateLimit-Limit")!: "5000", HTTPField.Name("X-RateLimit-Remaining")!: "0", HTTPField.Name("X-RateLimit-Reset")!: "1795003600",
        ], now: now))
        #expect(spent.resumeAt == Date(timeIntervalSince1970: 1_795_003_600))
    }

    @Test(arguments: [
        ("100;w=900", "limit=100, remaining=0, reset=30"),
        (#""default";q=100;w=900"#, #""default";r=0;t=30"#),
    ])
    func theIETFDraftsFieldsAreReadInEitherForm(policy: String, current: String) throws {
        let now = Self.at(0)
        let announcement = try #require(QuotaAnnouncement.read(status: 200, fields: [
            HTTPField.Name("RateLimit-Policy")!: policy, HTTPField.Name("RateLimit")!: current,
        ], now: now))
        #expect(announcement.windows == [.init(limit: 100, length: .seconds(900), used: 100)])
        #expect(announcement.resumeAt == Self.at(30))
    }

    @Test func a429sRetryAfterHoldsCallsAndAPlainAnswerAnnouncesNothing() throws {
        let now = Self.at(0)
        #expect(try #require(QuotaAnnouncement.read(status: 429, fields: [.retryAfter: "12"], now: now)).resumeAt == Self.at(12))
        #expect(QuotaAnnouncement.read(status: 200, fields: [.retryAfter: "12"], now: now) == nil, "Retry-After on a success is no hold")
        #expect(QuotaAnnouncement.read(status: 200, fields: [.contentType: "application/json"], now: now) == nil)
        #expect(QuotaAnnouncement.read(status: 200, fields: [HTTPField.Name("X-RateLimit-Usage")!: "lots"], now: now) == nil)
    }
}

/// The quota stage in the chain, against a mock transport and a manual clock.
@Suite("Quotas in the chain")
struct QuotaStageTests {
    private static func client(
        _ transport: MockTransport, clock: ManualClock, windows: [QuotaWindow], whenExhausted: QuotaPolicy.Exhausted, host: String = "api.test"
    ) -> APIClient {
        var configuration = ClientConfiguration(baseURL: URL(string: "https://api.test")!)
        configuration.clock = clock
        configuration.retryPolicy = .none
        configuration.quota = QuotaPolicy(rules: [QuotaRule(name: "provider", hosts: [host], windows: windows)], whenExhausted: whenExhausted)
        return APIClient(configuration: configuration, transport: transport)
    }

    @Test func aSpentQuotaFailsAtOnceWithWhenToTryAgain() async throws {
        let transport = MockTransport { _, _ in .status(.ok) }
        let client = Self.client(transport, clock: ManualClock(), windows: [QuotaWindow(limit: 3, length: .seconds(60))], whenExhausted: .fail)
        for _ in 0..<3 { try await client.send(Request<Void>(path: "/thing")) }
        let error = await courierError { try await client.send(Request<Void>(path: "/thing")) }
        #expect(error?.code == .rateLimited)
        #expect(error?.retryAfter == .seconds(60))
        #expect(transport.requests.count == 3, "the spent call never left")
    }

    @Test func aCallWaitsForItsTurnAndTheServerNeverSeesMoreThanTheLimitInAWindow() async throws {
        let clock = ManualClock()
        let sent = SentMoments()
        let transport = MockTransport { _, _ in
            sent.append(clock.date)
            return .status(.ok)
        }
        let client = Self.client(transport, clock: clock, windows: [QuotaWindow(limit: 2, length: .seconds(10))], whenExhausted: .wait)
        for _ in 0..<7 { try await client.send(Request<Void>(path: "/thing")) }
        let moments = sent.all
        #expect(moments.count == 7)
        for (index, moment) in moments.enumerated() {
            #expect(moments[index...].prefix { $0 < moment.addingTimeInterval(10) }.count <= 2)
        }
        #expect(clock.sleeps == [.seconds(10), .seconds(10), .seconds(10)], "each pair waited for the window, and no longer")
    }

    @Test func aWaitPastTheCallsDeadlineFailsInstead() async throws {
        let transport = MockTransport { _, _ in .status(.ok) }
        let clock = ManualClock()
        let client = Self.client(transport, clock: clock, windows: [QuotaWindow(limit: 1, length: .seconds(60))], whenExhausted: .wait)
        try await client.send(Request<Void>(path: "/thing"))
        var hurried = Request<Void>(path: "/thing")
        hurried.options.deadline = .seconds(5)
        let error = await courierError { try await client.send(hurried) }
        #expect(error?.code == .rateLimited)
        #expect(clock.sleeps.isEmpty)
    }

    @Test func whatTheServerAnnouncesSpendsTheQuotaForEveryone() async throws {
        let transport = MockTransport { _, _ in
            MockResponse(status: .ok, headers: [HTTPField.Name("X-RateLimit-Limit")!: "100,1000", HTTPField.Name("X-RateLimit-Usage")!: "100,400"])
        }
        let client = Self.client(
            transport, clock: ManualClock(),
            windows: [QuotaWindow(limit: 100, length: .seconds(900)), QuotaWindow(limit: 1_000, length: .seconds(86_400))], whenExhausted: .fail
        )
        try await client.send(Request<Void>(path: "/athlete"))
        let error = await courierError { try await client.send(Request<Void>(path: "/athlete")) }
        #expect(error?.code == .rateLimited, "other clients spent the window: Strava says 100 of 100")
        #expect((error?.retryAfter ?? .zero) > .zero)
        #expect((error?.retryAfter ?? .seconds(901)) <= .seconds(900), "until the quarter hour ends")
        #expect(transport.requests.count == 1)
    }

    @Test func a429sRetryAfterHoldsTheNextCallsWithoutAsking() async throws {
        let transport = MockTransport { _, _ in MockResponse(status: .tooManyRequests, headers: [.retryAfter: "30"]) }
        let client = Self.client(transport, clock: ManualClock(), windows: [QuotaWindow(limit: 100, length: .seconds(900))], whenExhausted: .fail)
        let first = await courierError { try await client.send(Request<Void>(path: "/thing")) }
        #expect(first?.status?.code == 429)
        let second = await courierError { try await client.send(Request<Void>(path: "/thing")) }
        #expect(second?.code == .rateLimited)
        #expect(second?.retryAfter == .seconds(30))
        #expect(transport.requests.count == 1)
    }

    @Test func requestsToAnotherHostAreNotCounted() async throws {
        let transport = MockTransport { _, _ in .status(.ok) }
        let client = Self.client(transport, clock: ManualClock(), windows: [QuotaWindow(limit: 1, length: .seconds(60))], whenExhausted: .fail, host: "strava.test")
        for _ in 0..<5 { try await client.send(Request<Void>(path: "/thing")) }
        #expect(transport.requests.count == 5)
    }
}

/// Moments a mock transport saw requests at.
private final class SentMoments: Sendable {
    private let moments = Mutex<[Date]>([])
    var all: [Date] { moments.withLock { $0 } }
    func append(_ date: Date) { moments.withLock { $0.append(date) } }
}
