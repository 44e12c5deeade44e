public import Foundation

/// The calls a quota has admitted, and the decision for the next one: a pure value, fed the
/// time by its caller, shared later by a storage of its own (memory, or a fleet's database).
///
/// Each window keeps the moments of the calls it admitted within its length (a sliding log),
/// so no stretch of ``QuotaWindow/length`` ever holds more than ``QuotaWindow/limit`` calls.
/// What the server announces corrects it (``QuotaAnnouncement``): limits it publishes replace
/// the configured ones, usage it reports beyond what the ledger saw is counted, and an
/// exhausted window or a 429's `Retry-After` holds every call until the time it gives.
///
/// ```swift
/// var ledger = QuotaLedger(windows: strava)
/// switch ledger.admit(at: now) {
/// case .admitted: send()
/// case .wait(let until): wait(until)
/// }
/// ```
public struct QuotaLedger: Sendable, Hashable, Codable {
    /// What a call may do now.
    public enum Decision: Sendable, Hashable, Codable {
        /// It may go; it has been counted.
        case admitted
        /// It may go at this moment, not before; nothing was counted.
        case wait(until: Date)
    }

    /// The windows, as configured or as the server last announced them.
    public private(set) var windows: [QuotaWindow]
    /// The calls each window counts, oldest first (the same index as ``windows``).
    private var admitted: [[Date]]
    /// No call goes before this moment (a 429's `Retry-After`, an exhausted window's reset).
    public private(set) var blockedUntil: Date?

    /// Makes a ledger that has admitted nothing.
    /// - Parameter windows: The limits; a ledger without windows admits everything.
    public init(windows: [QuotaWindow]) {
        self.windows = windows
        self.admitted = windows.map { _ in [] }
    }

    /// Admits a call now if every window has room and nothing holds calls back, counting it;
    /// otherwise says when the first call may go.
    public mutating func admit(at now: Date) -> Decision {
        forget(before: now)
        var until = blockedUntil.flatMap { $0 > now ? $0 : nil }
        for (index, window) in windows.enumerated() where admitted[index].count >= window.limit {
            // The oldest call in the window leaves it `length` after it was made.
            let frees = admitted[index][admitted[index].count - window.limit].addingTimeInterval(window.seconds)
            until = max(until ?? frees, frees)
        }
        if let until, until > now { return .wait(until: until) }
        for index in windows.indices { insert(now, into: index) }
        return .admitted
    }

    /// How many calls each window counts at `now`, in the order of ``windows``.
    public func used(at now: Date) -> [Int] {
        windows.indices.map { index in admitted[index].filter { $0 > now.addingTimeInterval(-windows[index].seconds) }.count }
    }

    /// Corrects the ledger with what the server announced on an answer received at `now`.
    public mutating func correct(with announcement: QuotaAnnouncement, at now: Date) {
        forget(before: now)
        for announced in announcement.windows {
            let index: Int
            if let length = announced.length, let match = windows.firstIndex(where: { $0.length == length }) {
                index = match
            } else if let length = announced.length {
                windows.append(QuotaWindow(limit: announced.limit ?? Int.max, length: length))
                admitted.append([])
                index = windows.count - 1
            } else if let first = windows.indices.first {
                index = first
            } else {
                continue
            }
            if let limit = announced.limit { windows[index].limit = max(1, limit) }
            if let used = announced.used, used > admitted[index].count {
                // The server counted calls this ledger did not see (another process, another
                // device): count them now, which holds the window at least as long as it should.
                for _ in 0..<(min(used, windows[index].limit) - min(admitted[index].count, windows[index].limit)) { insert(now, into: index) }
            }
        }
        if let resumeAt = announcement.resumeAt, resumeAt > now {
            blockedUntil = max(blockedUntil ?? resumeAt, resumeAt)
        }
    }

    /// Counts a call admitted at `admittedAt` as made when it ended, `at`: the server saw it
    /// somewhere between the two (after waiting for a connection, say), so its place in every
    /// window is held until `at` plus the window's length. This keeps the server's own count,
    /// over any stretch of a window's length, within the limit however long calls wait after
    /// their admission.
    /// - Parameters:
    ///   - admittedAt: The date the call was admitted at (as given to ``admit(at:)``).
    ///   - at: When its answer (or failure) came.
    public mutating func settle(admittedAt: Date, at: Date) {
        guard at > admittedAt else { return }
        for index in windows.indices {
            // The date exactly as admitted (a store keeps dates exactly): a near one could be
            // another call's settled date, which would leave this call counted too early.
            guard let position = admitted[index].firstIndex(of: admittedAt) else { continue }
            admitted[index].remove(at: position)
            insert(at, into: index)
        }
    }

    /// Adds a call's date to a window's log, keeping the log in order: a settled call may lie
    /// later than a call admitted after it (at a date read a moment earlier), and the wait a
    /// full window gives counts back from the newest.
    private mutating func insert(_ date: Date, into index: Int) {
        let position = admitted[index].lastIndex { $0 <= date }.map { $0 + 1 } ?? 0
        admitted[index].insert(date, at: position)
    }

    /// Drops the calls no window counts any more, and a hold that has passed.
    private mutating func forget(before now: Date) {
        for index in windows.indices {
            let start = now.addingTimeInterval(-windows[index].seconds)
            admitted[index].removeAll { $0 <= start }
        }
        if let blocked = blockedUntil, blocked <= now { blockedUntil = nil }
    }
}
