import Foundation

/// How long to wait between attempts.
///
/// The delay before attempt `n + 1` (after `n` failed attempts) is computed from the
/// strategy, capped at ``maxDelay``, then jittered. Full jitter (a uniform draw between zero
/// and the computed delay) is the default: it spreads clients that failed together, so they
/// do not return together.
public struct Backoff: Sendable, Hashable {
    /// How the delay grows with the attempt number.
    public enum Strategy: Sendable, Hashable {
        /// No delay.
        case none
        /// The same delay every time.
        case constant(Duration)
        /// `initial`, then `initial + increment`, `initial + 2 × increment`, …
        case linear(initial: Duration, increment: Duration)
        /// `base`, then `base × multiplier`, `base × multiplier²`, …
        case exponential(base: Duration, multiplier: Double)
    }

    /// How the computed delay is randomised.
    public enum Jitter: Sendable, Hashable {
        /// Use the delay as computed.
        case none
        /// A uniform draw in `0…delay`.
        case full
        /// `delay / 2` plus a uniform draw in `0…delay / 2`.
        case equal
    }

    /// The growth strategy.
    public var strategy: Strategy
    /// The longest delay, before jitter. Also caps a server's `Retry-After`.
    public var maxDelay: Duration
    /// The randomisation.
    public var jitter: Jitter

    /// Makes a backoff.
    /// - Parameters:
    ///   - strategy: How the delay grows.
    ///   - maxDelay: The cap.
    ///   - jitter: The randomisation; full by default.
    public init(_ strategy: Strategy, maxDelay: Duration = .seconds(30), jitter: Jitter = .full) {
        self.strategy = strategy
        self.maxDelay = maxDelay
        self.jitter = jitter
    }

    /// No waiting between attempts.
    public static let none = Backoff(.none, maxDelay: .zero, jitter: .none)

    /// Exponential from `base`, doubling, capped, with full jitter.
    /// - Parameters:
    ///   - base: The first delay.
    ///   - maxDelay: The cap.
    public static func exponential(base: Duration = .milliseconds(500), maxDelay: Duration = .seconds(30)) -> Backoff {
        Backoff(.exponential(base: base, multiplier: 2), maxDelay: maxDelay)
    }

    /// The delay before the next attempt, without jitter.
    /// - Parameter failedAttempts: How many attempts have failed so far (1 after the first).
    /// - Returns: The capped delay.
    public func baseDelay(afterFailedAttempts failedAttempts: Int) -> Duration {
        let step = max(0, failedAttempts - 1)
        let delay: Duration
        switch strategy {
        case .none:
            delay = .zero
        case .constant(let value):
            delay = value
        case .linear(let initial, let increment):
            // In seconds, so that a huge attempt count (from a damaged store) caps instead of trapping.
            let seconds = initial.timeInterval + increment.timeInterval * Double(step)
            delay = seconds.isFinite && seconds < maxDelay.timeInterval ? .nanoseconds(Int64(max(0, seconds) * 1e9)) : maxDelay
        case .exponential(let base, let multiplier):
            let factor = pow(multiplier, Double(min(step, 62)))
            let seconds = base.timeInterval * factor
            delay = seconds.isFinite && seconds < maxDelay.timeInterval ? .nanoseconds(Int64(seconds * 1e9)) : maxDelay
        }
        return min(delay, maxDelay)
    }

    /// The delay before the next attempt, jittered.
    /// - Parameters:
    ///   - failedAttempts: How many attempts have failed so far.
    ///   - generator: The source of randomness.
    /// - Returns: The delay to wait.
    public func delay(afterFailedAttempts failedAttempts: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        let delay = baseDelay(afterFailedAttempts: failedAttempts)
        let nanoseconds = delay.timeInterval * 1e9
        guard nanoseconds >= 1 else { return .zero }
        switch jitter {
        case .none:
            return delay
        case .full:
            return .nanoseconds(Int64(Double.random(in: 0...nanoseconds, using: &generator)))
        case .equal:
            return .nanoseconds(Int64(nanoseconds / 2 + Double.random(in: 0...(nanoseconds / 2), using: &generator)))
        }
    }
}
