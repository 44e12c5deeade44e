import CacheConformance
import Courier
import CourierAsyncHTTPClient
import Foundation
import Testing

/// The cache conformance runner and its origin, exercised with a client that has no cache:
/// whatever passes or fails here does so because of the runner's scoring and the origin's
/// answers, not because of a cache.
@Suite("Cache conformance runner")
struct CacheConformanceTests {
    /// A fresh client per test, with no cache and no retries.
    static let noCacheClient: CacheConformanceRunner.ClientFactory = { url, _ in
        let transport = AsyncHTTPClientTransport()
        let client = APIClient(configuration: ClientConfiguration(baseURL: url, retryPolicy: .none), transport: transport)
        return (client, { try? await transport.shutdown() })
    }

    /// The suite's data, found from this file's place in the package.
    static var suiteURL: URL {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return CacheConformanceRunner.defaultTestsURL(currentDirectory: packageRoot)
    }

    /// Runs some tests of a suite on an embedded origin, without pauses.
    static func run(_ suite: ConformanceSuite, only ids: Set<String>) async throws -> ConformanceReport {
        let runner = CacheConformanceRunner(suite: suite, pauseAfter: .zero, makeClient: noCacheClient)
        return try await runner.runWithEmbeddedOrigin(only: ids)
    }

    /// A one-group suite from the JSON of its tests.
    static func suite(_ testsJSON: String) throws -> ConformanceSuite {
        let json = #"{"suites": [{"id": "local", "name": "local", "tests": \#(testsJSON)}]}"#
        return try JSONDecoder().decode(ConformanceSuite.self, from: Data(json.utf8))
    }

    @Test func suiteTestsScoreAsTheyShouldWithoutACache() async throws {
        let suite = try ConformanceSuite.load(from: Self.suiteURL)
        let report = try await Self.run(suite, only: [
            "cc-resp-no-store", "cc-resp-no-store-case-insensitive", "cc-resp-no-cache", "cc-resp-no-cache-revalidate",
            "heuristic-200-cached", "other-heuristic-content-disposition-attachment", "vary-no-match",
        ])
        let verdicts = Dictionary(uniqueKeysWithValues: report.results.map { ($0.id, $0) })

        // not_cached expectations hold when nothing is cached, and so do their dependants.
        #expect(verdicts["cc-resp-no-store"]?.verdict == .pass)
        #expect(verdicts["cc-resp-no-store-case-insensitive"]?.verdict == .pass)
        // A cached expectation fails, on its own merits.
        #expect(verdicts["heuristic-200-cached"]?.verdict == .fail)
        #expect(verdicts["heuristic-200-cached"]?.reason?.contains("does not come from the cache") == true)
        // The origin answers 999 to a request that should have been conditional.
        #expect(verdicts["cc-resp-no-cache-revalidate"]?.verdict == .fail)
        #expect(verdicts["cc-resp-no-cache-revalidate"]?.reason?.contains("should have been conditional") == true)
        // A failed or missing dependency makes a dependency failure.
        #expect(verdicts["other-heuristic-content-disposition-attachment"]?.verdict == .dependency)
        #expect(verdicts["other-heuristic-content-disposition-attachment"]?.failedDependency == "heuristic-200-cached")
        #expect(verdicts["vary-no-match"]?.verdict == .dependency)
        #expect(verdicts["vary-no-match"]?.reason?.contains("was not run") == true)

        #expect(report.tally(.required).dependency == 1)
        #expect(report.tally(.optimal).failed == 2)
        #expect(report.summaryLine == "required: 3/4  optimal: 0/2  check: 0/1")
    }

    @Test func originAnswers304OnlyWhenTheConditionalHeaderMatchesThePreviousValidator() async throws {
        let suite = try Self.suite("""
        [
          {"id": "match", "requests": [
            {"response_headers": [["ETag", "\\"v1\\""], ["Last-Modified", -100]]},
            {"request_headers": [["If-None-Match", "\\"v1\\""]], "expected_type": "etag_validated", "expected_status": 304}
          ]},
          {"id": "mismatch", "requests": [
            {"response_headers": [["ETag", "\\"v1\\""]]},
            {"request_headers": [["If-None-Match", "\\"v2\\""]], "expected_type": "etag_validated", "expected_status": 304}
          ]},
          {"id": "lm-magic-ims", "requests": [
            {"response_headers": [["Last-Modified", -100], ["Expires", 3600]]},
            {"request_headers": [["If-Modified-Since", -100]], "magic_ims": true, "expected_type": "lm_validated",
             "expected_status": 304, "expected_response_headers": [["Server-Request-Count", "2"]]}
          ]}
        ]
        """)
        let report = try await Self.run(suite, only: ["match", "mismatch", "lm-magic-ims"])
        let verdicts = Dictionary(uniqueKeysWithValues: report.results.map { ($0.id, $0) })
        #expect(verdicts["match"]?.verdict == .pass)
        #expect(verdicts["mismatch"]?.verdict == .fail)
        #expect(verdicts["mismatch"]?.reason == "response 2 status is 999, not 304")
        #expect(verdicts["lm-magic-ims"]?.verdict == .pass, "\(verdicts["lm-magic-ims"]?.reason ?? "")")
    }

    @Test func setupChecksFailAsSetupAndDateOffsetsRenderOnBothSides() async throws {
        let suite = try Self.suite("""
        [
          {"id": "setup-step", "requests": [
            {"setup": true},
            {"setup": true, "expected_type": "cached"}
          ]},
          {"id": "dates", "kind": "check", "requests": [
            {"response_headers": [["Expires", 3600], ["Date", 0]],
             "expected_response_headers": [["Expires", 3600], ["Date", 0], ["Server-Request-Count", "1"]],
             "expected_response_headers_missing": ["Age"], "expected_type": "not_cached"}
          ]}
        ]
        """)
        let report = try await Self.run(suite, only: ["setup-step", "dates"])
        let verdicts = Dictionary(uniqueKeysWithValues: report.results.map { ($0.id, $0) })
        #expect(verdicts["setup-step"]?.verdict == .setup)
        #expect(verdicts["dates"]?.verdict == .pass, "\(verdicts["dates"]?.reason ?? "")")
    }

    @Test func datesRenderInBothHTTPForms() {
        let instant: Int64 = 784_111_777_000  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(SuiteDates.render(serverNow: instant, offset: 0) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(SuiteDates.render(serverNow: instant + 999, offset: 60, rfc850: true) == "Sunday, 06-Nov-94 08:50:37 GMT")
    }

    @Test func fetchCacheModesMapToTheClosestCachePolicy() {
        #expect(FetchCacheMode.noStore.cachePolicy == .bypass)
        #expect(FetchCacheMode.noCache.cachePolicy == .noCache)
        #expect(FetchCacheMode.forceCache.cachePolicy == .cacheFirst)
        #expect(FetchCacheMode.onlyIfCached.cachePolicy == .cacheOnly)
        #expect(FetchCacheMode.default.cachePolicy == nil)
    }
}
