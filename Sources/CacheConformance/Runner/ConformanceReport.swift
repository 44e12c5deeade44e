public import Foundation

/// The results of a run and their summary, ready to print or to write as JSON.
public struct ConformanceReport: Sendable, Encodable {
    /// Passed and total tests of one kind.
    public struct Tally: Sendable, Hashable, Encodable {
        /// Tests that passed (for `check`: that showed the behaviour).
        public var passed: Int
        /// Tests run.
        public var total: Int
        /// Tests that failed on their own merits.
        public var failed: Int
        /// Tests that could not be set up.
        public var setup: Int
        /// Tests not scored because a dependency did not pass.
        public var dependency: Int

        /// `passed/total`.
        public var fraction: String { "\(passed)/\(total)" }
    }

    /// Where the suite came from (repository and commit), when the file says.
    public var source: String?
    /// The origin the tests ran against.
    public var server: String
    /// One result per test, in suite order.
    public var results: [ConformanceTestResult]

    enum CodingKeys: String, CodingKey {
        case source, server, summary
        case results = "tests"
    }

    /// Makes a report.
    /// - Parameters:
    ///   - source: Where the suite came from.
    ///   - server: The origin's URL.
    ///   - results: The scored results.
    public init(source: String?, server: String, results: [ConformanceTestResult]) {
        self.source = source
        self.server = server
        self.results = results
    }

    /// The tally for one kind of test.
    /// - Parameter kind: The kind.
    public func tally(_ kind: ConformanceTestKind) -> Tally {
        let ofKind = results.filter { $0.kind == kind }
        func count(_ verdict: ConformanceTestResult.Verdict) -> Int { ofKind.count { $0.verdict == verdict } }
        return Tally(passed: count(.pass), total: ofKind.count, failed: count(.fail), setup: count(.setup), dependency: count(.dependency))
    }

    /// `required: P/T  optimal: P/T  check: P/T`.
    public var summaryLine: String {
        ConformanceTestKind.allCases.map { "\($0.rawValue): \(tally($0).fraction)" }.joined(separator: "  ")
    }

    /// Writes `source`, `server`, `summary` (a tally per kind) and `tests` (one object per test).
    /// - Parameter encoder: The encoder.
    /// - Throws: `EncodingError`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(source, forKey: .source)
        try container.encode(server, forKey: .server)
        let summary = Dictionary(uniqueKeysWithValues: ConformanceTestKind.allCases.map { ($0.rawValue, tally($0)) })
        try container.encode(summary, forKey: .summary)
        try container.encode(results, forKey: .results)
    }

    /// Writes the report as pretty-printed JSON with sorted keys.
    /// - Parameter url: The file.
    /// - Throws: The encoding or write error.
    public func write(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(self).write(to: url, options: .atomic)
    }
}
