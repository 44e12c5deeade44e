/// How one test ended when run on its own, before dependencies are considered.
public enum TestOutcome: Sendable, Hashable {
    /// Every check held.
    case passed
    /// A conformance check failed, or a request failed outright.
    case failed(String)
    /// A setup check failed: the test could not be set up, so it says nothing about the cache.
    case setupFailed(String)

    /// The reason, when the test did not pass.
    public var reason: String? {
        switch self {
        case .passed: return nil
        case .failed(let reason), .setupFailed(let reason): return reason
        }
    }
}

/// A failed check: a conformance failure, or a setup failure when the step marks the check
/// as setup (`setup: true` or the check's name in `setup_tests`).
struct CheckFailure: Error, Sendable {
    /// Whether the failed check was a setup check.
    var isSetup: Bool
    /// What was expected and what was seen.
    var message: String

    /// Throws unless `condition` holds.
    /// - Parameters:
    ///   - condition: The check.
    ///   - isSetup: Whether a failure is a setup failure.
    ///   - message: The message, made only on failure.
    static func require(_ condition: Bool, setup isSetup: Bool, _ message: @autoclosure () -> String) throws {
        guard !condition else { return }
        throw CheckFailure(isSetup: isSetup, message: message())
    }

    /// The outcome this failure gives the test.
    var outcome: TestOutcome {
        isSetup ? .setupFailed(message) : .failed(message)
    }
}
