public import Foundation

/// Where quota ledgers live: in this process by default (``MemoryQuotaStore``), or shared by
/// a fleet of processes (a database's, so that N instances spend one quota, not N).
///
/// Each quota is a ``QuotaLedger`` under a key (a provider's name, with the account when the
/// provider counts per account). A store decides and counts atomically: two processes asking
/// for the last call of a window never both get it. It keeps dates exactly as given, since a
/// settlement finds its call's date by equality.
public protocol QuotaStore: Sendable {
    /// Admits one call under `key` now, or says when it may go.
    /// - Parameters:
    ///   - key: The quota.
    ///   - windows: Its configured windows, used when the store has no ledger for it yet.
    ///   - now: The current date.
    func admit(key: String, windows: [QuotaWindow], at now: Date) async throws -> QuotaLedger.Decision

    /// Corrects the ledger under `key` with what a server announced.
    /// - Parameters:
    ///   - key: The quota.
    ///   - windows: Its configured windows, used when the store has no ledger for it yet.
    ///   - announcement: What the server said.
    ///   - now: When its answer arrived.
    func correct(key: String, windows: [QuotaWindow], with announcement: QuotaAnnouncement, at now: Date) async throws

    /// Counts a call admitted at `admittedAt` as made at `endedAt`, when its answer came
    /// (``QuotaLedger/settle(admittedAt:at:)``).
    /// - Parameters:
    ///   - key: The quota.
    ///   - admittedAt: The date the call was admitted at.
    ///   - endedAt: When its answer (or failure) came.
    func settle(key: String, admittedAt: Date, endedAt: Date) async throws
}

/// Quota ledgers in this process's memory: the default ``QuotaStore``.
public actor MemoryQuotaStore: QuotaStore {
    private var ledgers: [String: QuotaLedger] = [:]

    /// Makes an empty store.
    public init() {}

    /// Admits one call under `key` now, or says when it may go.
    public func admit(key: String, windows: [QuotaWindow], at now: Date) -> QuotaLedger.Decision {
        var ledger = ledgers[key] ?? QuotaLedger(windows: windows)
        let decision = ledger.admit(at: now)
        ledgers[key] = ledger
        return decision
    }

    /// Corrects the ledger under `key` with what a server announced.
    public func correct(key: String, windows: [QuotaWindow], with announcement: QuotaAnnouncement, at now: Date) {
        var ledger = ledgers[key] ?? QuotaLedger(windows: windows)
        ledger.correct(with: announcement, at: now)
        ledgers[key] = ledger
    }

    /// Counts a call admitted at `admittedAt` as made at `endedAt`.
    public func settle(key: String, admittedAt: Date, endedAt: Date) {
        ledgers[key]?.settle(admittedAt: admittedAt, at: endedAt)
    }
}
