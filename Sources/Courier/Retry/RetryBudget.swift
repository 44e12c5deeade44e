import Synchronization

/// Limits retries across a whole client, so an outage does not multiply the load.
///
/// Over a sliding window (10 seconds by default), retries may add at most ``Configuration/ratio``
/// (20 %) to the first attempts of that window, plus a small floor
/// (``Configuration/minimumRetries``) so that a quiet client can still retry. Once spent,
/// failures are returned at once with ``RetryStopReason/budgetExhausted``.
///
/// The window is counted in buckets of one tenth of its length; the state is a value
/// (``RetryBudget/State``) tested without I/O.
public final class RetryBudget: Sendable {
    /// The budget's limits.
    public struct Configuration: Sendable, Hashable {
        /// The most retries, as a fraction of first attempts in the window.
        public var ratio: Double
        /// Retries always allowed per window, whatever the traffic.
        public var minimumRetries: Int
        /// The window's length.
        public var window: Duration

        /// Makes a configuration.
        /// - Parameters:
        ///   - ratio: Retries per first attempt (0.2 by default).
        ///   - minimumRetries: The floor per window (10 by default).
        ///   - window: The window (10 seconds by default).
        public init(ratio: Double = 0.2, minimumRetries: Int = 10, window: Duration = .seconds(10)) {
            self.ratio = ratio
            self.minimumRetries = minimumRetries
            self.window = window
        }

        /// No limit: every retry the policy allows is made.
        public static let unlimited = Configuration(ratio: .infinity, minimumRetries: .max)
    }

    /// The counts in the window, as a value.
    public struct State: Sendable, Hashable {
        private static let bucketCount = 10
        private var requests = [Int](repeating: 0, count: bucketCount)
        private var retries = [Int](repeating: 0, count: bucketCount)
        private var currentBucket: Int64 = 0
        /// A bucket's length in nanoseconds, worked out once: every request advances the window.
        private let bucketNanoseconds: Int64
        /// The limits.
        public let configuration: Configuration

        /// An empty window.
        public init(configuration: Configuration) {
            self.configuration = configuration
            self.bucketNanoseconds = Self.nanoseconds(configuration.window) / Int64(Self.bucketCount)
        }

        /// Counts a first attempt at `elapsed` since the clock's origin.
        public mutating func recordRequest(at elapsed: Duration) {
            advance(to: elapsed)
            requests[index] += 1
        }

        /// Takes one retry from the budget if there is one left; returns whether it did.
        public mutating func tryRetry(at elapsed: Duration) -> Bool {
            advance(to: elapsed)
            let allowed = max(Double(configuration.minimumRetries), configuration.ratio * Double(requests.reduce(0, +)))
            guard Double(retries.reduce(0, +)) < allowed else { return false }
            retries[index] += 1
            return true
        }

        private var index: Int { Int(currentBucket % Int64(Self.bucketCount)) }

        private mutating func advance(to elapsed: Duration) {
            let bucket = bucketNanoseconds > 0 ? Self.nanoseconds(elapsed) / bucketNanoseconds : 0
            guard bucket > currentBucket else { return }
            let steps = min(Int64(Self.bucketCount), bucket - currentBucket)
            for step in 1...steps {
                let cleared = Int((currentBucket + step) % Int64(Self.bucketCount))
                requests[cleared] = 0
                retries[cleared] = 0
            }
            currentBucket = bucket
        }

        /// A duration in whole nanoseconds, saturating at the ends of `Int64`.
        private static func nanoseconds(_ duration: Duration) -> Int64 {
            let (seconds, attoseconds) = duration.components
            let (scaled, scaleOverflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
            let (total, sumOverflow) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
            if scaleOverflow || sumOverflow { return seconds < 0 ? .min : .max }
            return total
        }
    }

    private let state: Mutex<State>
    private let clock: any CourierClock
    private let origin: ContinuousClock.Instant

    /// Makes a budget.
    /// - Parameters:
    ///   - configuration: The limits.
    ///   - clock: The time source.
    public init(configuration: Configuration = Configuration(), clock: any CourierClock = SystemClock()) {
        self.state = Mutex(State(configuration: configuration))
        self.clock = clock
        self.origin = clock.now
    }

    /// Counts a first attempt.
    public func recordRequest() {
        let elapsed = origin.duration(to: clock.now)
        state.withLock { $0.recordRequest(at: elapsed) }
    }

    /// Takes one retry from the budget if there is one left; returns whether it did.
    public func tryRetry() -> Bool {
        let elapsed = origin.duration(to: clock.now)
        return state.withLock { $0.tryRetry(at: elapsed) }
    }
}
