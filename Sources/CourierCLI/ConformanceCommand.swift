import ArgumentParser
import CacheConformance
import Courier
import CourierAsyncHTTPClient
import Foundation

/// `courier conformance …`: Courier held to public test suites.
struct ConformanceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance",
        abstract: "Run public conformance suites against Courier.",
        subcommands: [CacheConformanceCommand.self, WebSocketConformanceCommand.self]
    )
}

/// `courier conformance cache`: the HTTP cache test suite through Courier's cache.
struct CacheConformanceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Run the HTTP cache test cases through Courier's cache.",
        discussion: """
        Without --server, starts its own origin speaking the suite's protocol on loopback. \
        Prints one line per test (PASS, FAIL, SETUP or DEP) and the summary \
        `required: P/T  optimal: P/T  check: P/T`. Tests marked cdn_only or browser_skip are \
        not run: Courier's cache is a private cache.
        """
    )

    @Option(help: "An origin speaking the suite's protocol (default: an embedded one on loopback).")
    var server: String?

    @Option(help: "The test cases (default: Tests/Conformance/cache-tests.json under the current directory, the repository's copy).")
    var tests: String?

    @Option(help: "Also write per-test results and the summary as JSON.")
    var json: String?

    func run() async throws {
        let testsURL = tests.map { URL(fileURLWithPath: $0) } ?? CacheConformanceRunner.defaultTestsURL()
        let suite: ConformanceSuite
        do {
            suite = try ConformanceSuite.load(from: testsURL)
        } catch {
            throw ValidationError("cannot read the test cases at \(testsURL.path): \(error)")
        }
        let runner = CacheConformanceRunner(suite: suite, makeClient: makeConformanceClient)
        let count = runner.selectedTests().count
        let report: ConformanceReport
        if let server {
            guard let url = URL(string: server), let scheme = url.scheme, ["http", "https"].contains(scheme.lowercased()) else {
                throw ValidationError("not an http(s) URL: \(server)")
            }
            print("running \(count) cache tests against \(url.absoluteString), \(runner.concurrency) at a time")
            report = await runner.run(against: url)
        } else {
            print("running \(count) cache tests against an embedded origin, \(runner.concurrency) at a time")
            report = try await runner.runWithEmbeddedOrigin()
        }
        for result in report.results { print(result.line) }
        print(report.summaryLine)
        if let json {
            try report.write(to: URL(fileURLWithPath: json))
            print("results written to \(json)")
        }
    }
}

/// The client each conformance test runs through: a fresh `APIClient` with a fresh
/// in-memory `HTTPCache`, on its own AsyncHTTPClient transport, with no retries (a
/// retried request would be scored as one).
/// - Parameters:
///   - baseURL: The origin.
///   - clock: The clock the cache reads: the system's, or the test's own in a run on
///     virtual time (`CacheConformanceRunner.usesVirtualTime`).
/// - Returns: The client, and what shuts its transport down.
@Sendable
func makeConformanceClient(baseURL: URL, clock: any CourierClock) async throws -> (APIClient, cleanup: @Sendable () async -> Void) {
    let transport = AsyncHTTPClientTransport()
    var configuration = ClientConfiguration(baseURL: baseURL, retryPolicy: .none)
    configuration.cache = HTTPCache(storage: MemoryCacheStorage(), clock: clock)
    return (APIClient(configuration: configuration, transport: transport), { try? await transport.shutdown() })
}
