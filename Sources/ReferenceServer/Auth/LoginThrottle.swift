import Foundation

/// Failed sign-ins per email, and the rule that locks an email after too many in a row.
///
/// A plain value with no clock: each operation takes the current time, and ``AuthService``
/// provides isolation. The rule: ``failureLimit`` failures in a row, the first of them less
/// than ``window`` ago, lock the key for ``window`` from the failure that reached the limit; a
/// success clears the count. Attempts still being checked count against the limit too, so a
/// burst of concurrent guesses cannot slip past it.
///
/// At most ``capacity`` keys are tracked. A new key that finds it full first forgets every
/// key whose count no longer matters, then the one least recently failed (unlocked keys
/// before locked ones). That pass is linear, but it runs only when full, and only beside a
/// password hash, which costs far more.
struct LoginThrottle: Sendable {
    /// How many keys are tracked unless configured otherwise.
    static let defaultCapacity = 10_000

    /// What to do with a sign-in attempt.
    enum Decision: Sendable, Equatable {
        /// Check the password; report the outcome with ``LoginThrottle/finish(key:succeeded:now:)``.
        case allowed
        /// Refuse it without checking the password; the client may try again after this many seconds.
        case throttled(retryAfterSeconds: Int)
    }

    /// What is known about one key.
    private struct Record: Sendable {
        /// Failures in the current run.
        var failures = 0
        /// When the first failure of the current run happened.
        var runStartedAt: Date
        /// When the latest failure happened (or the record was made).
        var lastActivity: Date
        /// Until when the key is locked, if it reached the limit.
        var lockedUntil: Date?
        /// Attempts allowed but not finished yet.
        var inFlight = 0

        /// Whether the key is locked at `now`.
        func isLocked(at now: Date) -> Bool {
            lockedUntil.map { now < $0 } ?? false
        }
    }

    /// Failures in a row that lock a key; at least 1.
    let failureLimit: Int
    /// How long a run of failures counts, and how long a lock lasts, in seconds; zero or less
    /// turns throttling off.
    let window: TimeInterval
    /// The most keys tracked; at least 1.
    let capacity: Int
    private var records: [String: Record] = [:]

    /// Creates an empty throttle.
    /// - Parameters:
    ///   - failureLimit: Failures in a row that lock a key; values below 1 count as 1.
    ///   - window: How long failures count and a lock lasts, in seconds; zero or less turns throttling off.
    ///   - capacity: The most keys tracked; values below 1 count as 1.
    init(failureLimit: Int, window: TimeInterval, capacity: Int = LoginThrottle.defaultCapacity) {
        self.failureLimit = max(failureLimit, 1)
        self.window = window
        self.capacity = max(capacity, 1)
    }

    /// Whether throttling is on.
    var isEnabled: Bool { window > 0 }

    /// How many keys are tracked now.
    var trackedCount: Int { records.count }

    /// Decides whether an attempt for `key` may check its password, and counts it in flight if so.
    /// - Parameters:
    ///   - key: The normalised email.
    ///   - now: The current time.
    mutating func begin(key: String, now: Date) -> Decision {
        guard isEnabled else { return .allowed }
        var record = records[key].map { refreshed($0, now: now) } ?? Record(runStartedAt: now, lastActivity: now)
        if let lockedUntil = record.lockedUntil {
            records[key] = record
            return .throttled(retryAfterSeconds: Self.seconds(from: now, to: lockedUntil))
        }
        guard record.failures + record.inFlight < failureLimit else {
            // The attempts in flight may reach the limit: wait for their outcome.
            records[key] = record
            return .throttled(retryAfterSeconds: 1)
        }
        if records[key] == nil {
            makeRoom(now: now)
        }
        record.inFlight += 1
        records[key] = record
        return .allowed
    }

    /// Records the outcome of an attempt that ``begin(key:now:)`` allowed.
    /// - Parameters:
    ///   - key: The normalised email.
    ///   - succeeded: Whether the password was right.
    ///   - now: The current time.
    mutating func finish(key: String, succeeded: Bool, now: Date) {
        guard isEnabled else { return }
        var record = records[key].map { refreshed($0, now: now) } ?? Record(runStartedAt: now, lastActivity: now)
        if records[key] == nil {
            // Forgotten to make room while it was checked: count it afresh.
            makeRoom(now: now)
        }
        record.inFlight = max(record.inFlight - 1, 0)
        if succeeded {
            record.failures = 0
            record.lockedUntil = nil
        } else {
            if record.failures == 0 {
                record.runStartedAt = now
            }
            record.failures += 1
            record.lastActivity = now
            if record.failures >= failureLimit {
                record.lockedUntil = now.addingTimeInterval(window)
            }
        }
        records[key] = matters(record, now: now) ? record : nil
    }

    // MARK: - Helpers

    /// A record with a finished lock, or a run older than the window, reset.
    private func refreshed(_ record: Record, now: Date) -> Record {
        var record = record
        if let lockedUntil = record.lockedUntil, now >= lockedUntil {
            record.lockedUntil = nil
            record.failures = 0
        } else if record.lockedUntil == nil, record.failures > 0, now >= record.runStartedAt.addingTimeInterval(window) {
            record.failures = 0
        }
        return record
    }

    /// Whether a record still affects a decision.
    private func matters(_ record: Record, now: Date) -> Bool {
        let current = refreshed(record, now: now)
        return current.inFlight > 0 || current.failures > 0 || current.isLocked(at: now)
    }

    /// Frees one slot when the throttle is full: forgets every record that no longer matters,
    /// then, if none did, the least recently failed one, preferring records without attempts
    /// in flight and unlocked ones.
    private mutating func makeRoom(now: Date) {
        guard records.count >= capacity else { return }
        records = records.filter { matters($0.value, now: now) }
        guard records.count >= capacity else { return }
        let victim = records.min { lhs, rhs in
            let left = (lhs.value.inFlight > 0 ? 1 : 0, lhs.value.isLocked(at: now) ? 1 : 0, lhs.value.lastActivity)
            let right = (rhs.value.inFlight > 0 ? 1 : 0, rhs.value.isLocked(at: now) ? 1 : 0, rhs.value.lastActivity)
            return left < right
        }
        if let victim {
            records[victim.key] = nil
        }
    }

    /// Whole seconds from `now` until `date`, rounded up, at least 1.
    private static func seconds(from now: Date, to date: Date) -> Int {
        let interval = date.timeIntervalSince(now).rounded(.up)
        guard interval.isFinite, interval < Double(Int.max) else { return Int.max }
        return max(Int(interval), 1)
    }
}
