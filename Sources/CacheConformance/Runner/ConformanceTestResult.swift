/// One test's scored result: its own outcome, with dependencies honoured.
public struct ConformanceTestResult: Sendable, Hashable, Encodable {
    /// How the test is scored.
    public enum Verdict: String, Sendable, Hashable, Encodable {
        /// Every check held (for a `check` test: the behaviour is present).
        case pass
        /// A check failed (for `optimal` a warning; for `check`: the behaviour is absent).
        case fail
        /// The test could not be set up.
        case setup
        /// A test it depends on did not pass, so it was not scored on its own merits.
        case dependency

        /// The label printed for it: `PASS`, `FAIL`, `SETUP` or `DEP`.
        public var label: String {
            switch self {
            case .pass: return "PASS"
            case .fail: return "FAIL"
            case .setup: return "SETUP"
            case .dependency: return "DEP"
            }
        }
    }

    /// The test's id.
    public var id: String
    /// How the test counts.
    public var kind: ConformanceTestKind
    /// The verdict.
    public var verdict: Verdict
    /// Why it did not pass.
    public var reason: String?
    /// For a dependency failure, the dependency that did not pass.
    public var failedDependency: String?

    enum CodingKeys: String, CodingKey {
        case id, kind, reason
        case verdict = "result"
        case failedDependency = "failed_dependency"
    }

    /// Makes a result.
    /// - Parameters:
    ///   - id: The test's id.
    ///   - kind: How it counts.
    ///   - verdict: The verdict.
    ///   - reason: Why it did not pass.
    ///   - failedDependency: The dependency that did not pass.
    public init(id: String, kind: ConformanceTestKind, verdict: Verdict, reason: String? = nil, failedDependency: String? = nil) {
        self.id = id
        self.kind = kind
        self.verdict = verdict
        self.reason = reason
        self.failedDependency = failedDependency
    }

    /// `PASS id (kind)`, or with `: reason` when it did not pass.
    public var line: String {
        let head = "\(verdict.label.padding(toLength: 5, withPad: " ", startingAt: 0)) \(id) (\(kind.rawValue))"
        guard let reason else { return head }
        return "\(head): \(reason)"
    }
}
