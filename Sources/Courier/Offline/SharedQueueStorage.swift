public import Foundation

/// A ``QueueStorage`` that several processes deliver from at once: an outbox.
///
/// Each process's ``OfflineQueue`` claims writes before delivering them, so no write goes out
/// from two processes, and a claim is a lease: a process that dies gives its writes back when
/// the lease ends. Writes are claimed by *group*: the writes of one account in one named queue
/// (``QueuedRequest/queue`` and ``QueuedRequest/account``) are claimed together, so they are
/// delivered in order whichever process delivers them. `CourierPostgres`'s
/// `PostgresQueueStorage` is one.
public protocol SharedQueueStorage: QueueStorage {
    /// Claims pending writes for this process, whole groups at a time, oldest group first, and
    /// returns them in order; a group another process holds under a lease that has not ended
    /// is left alone.
    /// - Parameters:
    ///   - now: The current date, for backoffs (a write's next attempt was set on this
    ///     process's clock). Leases are a shared storage's to time, on one clock for every
    ///     process (the database's), since processes' clocks differ.
    ///   - ignoringBackoff: Whether a group whose first write is still in its backoff may be claimed.
    ///   - excluding: Groups (``groupKey(of:)``) not to claim: those this round already tried.
    ///   - limit: The most writes to return.
    func claim(now: Date, ignoringBackoff: Bool, excluding: Set<String>, limit: Int) async throws -> [QueuedRequest]

    /// Extends this process's leases to `lease` from now on the storage's clock, and returns the groups
    /// (``groupKey(of:)``) it still holds: a group whose lease ended meanwhile and that another
    /// process claimed is not among them, and this process must not deliver from it any more.
    /// - Parameter now: The current date on this process's clock (a storage that times leases
    ///   on one clock for every process, as PostgreSQL's does, need not use it).
    @discardableResult
    func renewClaims(now: Date) async throws -> Set<String>

    /// The pending writes to `url`, in order (for a live write, which must not overtake them).
    func pendingWrites(to url: String) async throws -> [QueuedRequest]

    /// Gives back every group this process holds.
    func releaseClaims() async throws

    /// The earliest moment a pending write another round could deliver becomes due: its next
    /// attempt, or, in a group another process holds, the end of that lease. `nil` when
    /// nothing is pending.
    /// - Parameter now: The current date on this process's clock, which the answer is on too
    ///   (the end of another process's lease, timed by the storage, is converted to it).
    func nextDelivery(now: Date) async throws -> Date?

    /// Yields when any process appends a write, so that idle processes start delivering at
    /// once; timers cover backoffs and leases.
    func changes() -> AsyncStream<Void>

    /// How long a claim lasts without renewal.
    var lease: Duration { get }
}

extension SharedQueueStorage {
    /// The group a write is claimed with: its named queue and its account.
    public static func groupKey(of item: QueuedRequest) -> String {
        item.queue + "\u{1F}" + (item.account ?? "")
    }
}
