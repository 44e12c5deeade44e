public import Courier
public import Foundation

/// Runs the HTTP cache test suite through Courier clients and scores the results.
///
/// Each test gets a fresh client (so a fresh cache) from the factory, and its steps run in
/// order against an origin speaking the suite's protocol: a server you name, or a
/// ``ConformanceOrigin`` started for the run. Tests run concurrently, because many wait
/// three seconds to let a response go stale.
///
/// ```swift
/// let runner = CacheConformanceRunner(suite: try .load(from: CacheConformanceRunner.defaultTestsURL())) { url, clock in
///     let transport = AsyncHTTPClientTransport()
///     var configuration = ClientConfiguration(baseURL: url, retryPolicy: .none)
///     configuration.cache = HTTPCache(storage: MemoryCacheStorage(), clock: clock)
///     return (APIClient(configuration: configuration, transport: transport), { try? await transport.shutdown() })
/// }
/// let report = try await runner.runWithEmbeddedOrigin()
/// print(report.summaryLine)   // required: P/T  optimal: P/T  check: P/T
/// ```
///
/// Steps accept every status, and steps with `redirect: manual` go through a twin of the
/// client that follows no redirects; both share the factory client's transport and
/// configuration (and so its cache). A step's fetch `cache` mode becomes the closest
/// `CachePolicy` (see ``FetchCacheMode``).
public struct CacheConformanceRunner: Sendable {
    /// Makes the client for one test from the origin's base URL and the clock its cache
    /// must read (the system's, or the test's own under ``usesVirtualTime``), with what to
    /// call when the test is done.
    public typealias ClientFactory = @Sendable (URL, any CourierClock) async throws -> (APIClient, cleanup: @Sendable () async -> Void)

    /// The suite.
    public let suite: ConformanceSuite
    /// How many tests run at once.
    public var concurrency: Int
    /// How long `pause_after` waits (three seconds in the suite).
    public var pauseAfter: Duration
    /// Whether a run against the embedded origin (``runWithEmbeddedOrigin(only:)``) gives each
    /// test a time of its own, which moves only when the suite lets time pass, instead of the
    /// wall clock: outcomes then do not depend on how busy the machine is, and pauses take no
    /// real time. `false` by default; a run against another origin always uses real time.
    public var usesVirtualTime = false
    private let makeClient: ClientFactory

    /// Makes a runner.
    /// - Parameters:
    ///   - suite: The suite, usually ``ConformanceSuite/load(from:)`` of ``defaultTestsURL(currentDirectory:)``.
    ///   - concurrency: How many tests run at once (16 by default).
    ///   - pauseAfter: How long `pause_after` waits (three seconds by default).
    ///   - makeClient: Makes a fresh client for each test.
    public init(
        suite: ConformanceSuite,
        concurrency: Int = 16,
        pauseAfter: Duration = .seconds(3),
        makeClient: @escaping ClientFactory
    ) {
        self.suite = suite
        self.concurrency = max(1, concurrency)
        self.pauseAfter = pauseAfter
        self.makeClient = makeClient
    }

    /// `Tests/Conformance/cache-tests.json` under a directory (the current one by default): the
    /// copy of the suite committed in Courier's repository, found from the repository's root.
    /// - Parameter currentDirectory: The directory to resolve against.
    public static func defaultTestsURL(
        currentDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    ) -> URL {
        currentDirectory.appendingPathComponent("Tests/Conformance/cache-tests.json").standardizedFileURL
    }

    /// The tests a run covers: those that apply to a private cache, optionally narrowed to
    /// some ids, in suite order.
    /// - Parameter ids: The ids to keep, or `nil` for all.
    public func selectedTests(only ids: Set<String>? = nil) -> [ConformanceTest] {
        suite.privateCacheTests.filter { ids?.contains($0.id) ?? true }
    }

    /// Starts a ``ConformanceOrigin`` on loopback, runs the tests against it, and stops it.
    /// - Parameter ids: The ids to run, or `nil` for every test that applies.
    /// - Returns: The scored report.
    /// - Throws: When the origin cannot start.
    public func runWithEmbeddedOrigin(only ids: Set<String>? = nil) async throws -> ConformanceReport {
        let timeline = usesVirtualTime ? VirtualTimeline() : nil
        let origin = ConformanceOrigin(timeline: timeline)
        let url = try await origin.start()
        let report = await run(against: url, only: ids, timeline: timeline)
        await origin.stop()
        return report
    }

    /// Runs the tests against an origin speaking the suite's protocol.
    /// - Parameters:
    ///   - serverURL: The origin's base URL.
    ///   - ids: The ids to run, or `nil` for every test that applies. A test whose
    ///     dependency is not among them is scored as a dependency failure.
    /// - Returns: The scored report.
    public func run(against serverURL: URL, only ids: Set<String>? = nil) async -> ConformanceReport {
        await run(against: serverURL, only: ids, timeline: nil)
    }

    /// Runs the tests, on the tests' own times when a timeline keeps them (the embedded origin's).
    private func run(against serverURL: URL, only ids: Set<String>?, timeline: VirtualTimeline?) async -> ConformanceReport {
        let tests = selectedTests(only: ids)
        let control = OriginControl(serverURL: serverURL, connections: concurrency)
        let outcomes = await outcomes(of: tests, serverURL: serverURL, control: control, timeline: timeline)
        await control.shutdown()
        let source = [suite.source, suite.commit].compactMap { $0 }.joined(separator: " @ ")
        return ConformanceReport(
            source: source.isEmpty ? nil : source,
            server: serverURL.absoluteString,
            results: DependencyScoring.score(tests, outcomes: outcomes)
        )
    }

    /// Each test's own outcome, running at most ``concurrency`` tests at once.
    private func outcomes(
        of tests: [ConformanceTest], serverURL: URL, control: OriginControl, timeline: VirtualTimeline?
    ) async -> [String: TestOutcome] {
        await withTaskGroup(of: (String, TestOutcome).self) { group in
            var pending = tests.makeIterator()
            var outcomes: [String: TestOutcome] = [:]
            func startNext() {
                guard let test = pending.next() else { return }
                let execution = ConformanceTestExecution(
                    test: test, serverURL: serverURL, control: control, makeClient: makeClient, pauseAfter: pauseAfter,
                    timeline: timeline
                )
                group.addTask { (test.id, await execution.run()) }
            }
            for _ in 0..<concurrency { startNext() }
            while let (id, outcome) = await group.next() {
                outcomes[id] = outcome
                startNext()
            }
            return outcomes
        }
    }
}
