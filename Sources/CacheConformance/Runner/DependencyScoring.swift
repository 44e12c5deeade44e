/// Turns each test's own outcome into its scored result, honouring `depends_on`: a test
/// whose dependency did not pass (or was not run) is a dependency failure, whatever its own
/// outcome.
public enum DependencyScoring {
    /// Scores tests.
    /// - Parameters:
    ///   - tests: The tests that ran, in the order to report them.
    ///   - outcomes: Each test's own outcome, by id.
    /// - Returns: One result per test, in the same order.
    public static func score(_ tests: [ConformanceTest], outcomes: [String: TestOutcome]) -> [ConformanceTestResult] {
        var scorer = Scorer(tests: Dictionary(tests.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }), outcomes: outcomes)
        return tests.map { scorer.result(for: $0.id) ?? ConformanceTestResult(id: $0.id, kind: $0.kind, verdict: .setup, reason: "not run") }
    }

    private struct Scorer {
        let tests: [String: ConformanceTest]
        let outcomes: [String: TestOutcome]
        var memo: [String: ConformanceTestResult] = [:]
        var visiting: Set<String> = []

        /// The result for a test, or `nil` when it was not run.
        mutating func result(for id: String) -> ConformanceTestResult? {
            if let known = memo[id] { return known }
            guard let test = tests[id], let outcome = outcomes[id] else { return nil }
            guard visiting.insert(id).inserted else {
                return ConformanceTestResult(id: id, kind: test.kind, verdict: .dependency, reason: "dependency cycle")
            }
            defer { visiting.remove(id) }
            var scored: ConformanceTestResult?
            for dependency in test.dependsOn {
                let dependencyResult = result(for: dependency)
                guard dependencyResult?.verdict == .pass else {
                    let why = dependencyResult == nil ? "was not run" : "did not pass"
                    scored = ConformanceTestResult(
                        id: id, kind: test.kind, verdict: .dependency,
                        reason: "depends on \(dependency), which \(why)", failedDependency: dependency
                    )
                    break
                }
            }
            let result = scored ?? Self.ownResult(test, outcome)
            memo[id] = result
            return result
        }

        private static func ownResult(_ test: ConformanceTest, _ outcome: TestOutcome) -> ConformanceTestResult {
            switch outcome {
            case .passed: return ConformanceTestResult(id: test.id, kind: test.kind, verdict: .pass)
            case .failed(let reason): return ConformanceTestResult(id: test.id, kind: test.kind, verdict: .fail, reason: reason)
            case .setupFailed(let reason): return ConformanceTestResult(id: test.id, kind: test.kind, verdict: .setup, reason: reason)
            }
        }
    }
}
