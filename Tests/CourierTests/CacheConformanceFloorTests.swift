import CacheConformance
import Courier
@testable import CourierCLI
import Foundation
import Testing

/// The HTTP cache test suite (`../shared/conformance/cache-tests.json`), run as
/// `courier conformance cache` runs it: every test that applies to a private cache, against
/// the embedded origin, each through a fresh client with Courier's cache
/// (``CourierCLI/makeConformanceClient(baseURL:)``). It holds the score to floors, so a change
/// to the cache that loses a test fails here and not only in a report nobody reads.
@Suite("Cache conformance floors", .timeLimit(.minutes(2)))
struct CacheConformanceFloorTests {
    // Every required test passes but the two below; optimal and check tests are held to the
    // counts `swift run courier conformance cache` printed on 2026-11-25 (required 115/117,
    // optimal 65/77, check 52/74), no lower.
    /// The fewest optimal tests that must pass.
    static let optimalFloor = 65
    /// The fewest check tests that must pass (show the behaviour).
    static let checkFloor = 52
    /// Required tests Courier fails on purpose: they expect a stored response to keep its
    /// `Set-Cookie`, and Courier's cache never stores one, so that a cookie set for one
    /// response is never handed out again from the cache (README, Security).
    static let deliberateFailures: Set<String> = ["headers-store-Set-Cookie", "headers-store-Set-Cookie2"]

    /// Tests at once. Most tests wait three seconds (`pause_after`) to let a response go stale,
    /// 563 s of pauses in all: 16 at a time (the command's default) takes about 40 s; 64 at a
    /// time about 12 s, with a few hundred sockets open at most.
    static let concurrency = 64

    @Test func everyRequiredTestPassesAndOptimalAndCheckStayAtTheirFloors() async throws {
        let suite = try ConformanceSuite.load(from: CacheConformanceTests.suiteURL)
        let runner = CacheConformanceRunner(suite: suite, concurrency: Self.concurrency, makeClient: makeConformanceClient)
        let report = try await runner.runWithEmbeddedOrigin()
        #expect(report.results.count == runner.selectedTests().count)

        // The suite's tests wait real seconds for responses to go stale, and some check a
        // window of a second or two (`max-age=2`, answered from the cache): a machine busy
        // that long (a build beside the tests, a sanitizer) can fail one. A test that did not
        // pass is run once more, 16 at a time (the rest of the suite is over by then); a
        // required one that still did not pass, up to twice more, 4 at a time. A regression
        // fails every run; a busy second does not keep coming back. The tests Courier does not
        // pass (about 35, none required) make the second run last a few seconds.
        var passed = Set(report.results.filter { $0.verdict == .pass }.map(\.id))
        let required = Set(report.results.filter { $0.kind == .required }.map(\.id))
        var again = Set(report.results.filter { $0.verdict != .pass && !Self.deliberateFailures.contains($0.id) }.map(\.id))
        for concurrency in [16, 4, 4] where !again.isEmpty {
            var calm = runner
            calm.concurrency = concurrency
            passed.formUnion(try await calm.runWithEmbeddedOrigin(only: again).results.filter { $0.verdict == .pass }.map(\.id))
            again = again.intersection(required).subtracting(passed)
        }
        func count(_ kind: ConformanceTestKind) -> (passed: Int, total: Int) {
            let ofKind = report.results.filter { $0.kind == kind }
            return (ofKind.count { passed.contains($0.id) }, ofKind.count)
        }
        let summary = ConformanceTestKind.allCases.map { "\($0.rawValue): \(count($0).passed)/\(count($0).total)" }.joined(separator: "  ")

        let notPassed = report.results.filter { $0.kind == .required && !passed.contains($0.id) }
        let unexpected = notPassed.filter { !Self.deliberateFailures.contains($0.id) }.map(\.line)
        #expect(count(.required).total > 0, "no required test ran")
        #expect(unexpected.isEmpty, "\(summary); not passed, twice:\n\(unexpected.joined(separator: "\n"))")
        // The deliberate ones still run, and still fail for the reason given above.
        #expect(Set(notPassed.map(\.id)) == Self.deliberateFailures.intersection(report.results.map(\.id)), "\(summary)")
        #expect(count(.optimal).passed >= Self.optimalFloor, "\(summary)")
        #expect(count(.check).passed >= Self.checkFloor, "\(summary)")
    }
}
