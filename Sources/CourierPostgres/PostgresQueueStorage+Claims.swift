public import Courier
public import Foundation
import PostgresNIO

/// How processes share the outbox's writes: claims, leases and the next delivery.
extension PostgresQueueStorage {
    /// The most groups claimed at once.
    static let groupsPerClaim = 4

    /// Claims pending writes, whole groups at a time, oldest group first, skipping groups
    /// another process holds under a lease that has not ended (and rows another claim is
    /// taking this instant: `FOR UPDATE SKIP LOCKED`).
    ///
    /// Leases are timed on the database's clock (`clock_timestamp()`, read in the statement
    /// that decides), never on the process's: the processes of a fleet run on machines whose
    /// clocks differ, and one whose clock ran ahead would take the groups others are still
    /// delivering. `now` only decides backoffs, which this process's clock set.
    public func claim(now: Date, ignoringBackoff: Bool, excluding: Set<String>, limit: Int) async throws -> [QueuedRequest] {
        let leaseSeconds = lease.timeInterval
        let excluded = Array(excluding)
        let rows = try await database.withTransaction("claiming queued writes") { [self] connection in
            let claimed = try await connection.query("""
                WITH heads AS (
                    SELECT DISTINCT ON (group_key) group_key, seq, next_attempt_at, row_version
                    FROM courier_outbox WHERE store = \(name) AND state = 'pending'
                    ORDER BY group_key, seq
                ), candidates AS (
                    SELECT g.group_key FROM courier_outbox_groups g JOIN heads h ON h.group_key = g.group_key
                    WHERE g.store = \(name)
                      AND (g.leased_until IS NULL OR g.leased_until < clock_timestamp() OR g.leased_by = \(worker))
                      AND h.row_version <= \(PostgresSchema.rowVersion)
                      AND (\(ignoringBackoff) OR h.next_attempt_at <= \(now))
                      AND NOT (g.group_key = ANY(\(excluded)))
                    ORDER BY h.seq
                    LIMIT \(Self.groupsPerClaim)
                    FOR UPDATE OF g SKIP LOCKED
                )
                UPDATE courier_outbox_groups SET leased_by = \(worker), leased_until = clock_timestamp() + make_interval(secs => \(leaseSeconds))
                WHERE store = \(name) AND group_key IN (SELECT group_key FROM candidates)
                RETURNING group_key
                """, logger: database.logger).collect().map { try $0.decode(String.self) }
            guard !claimed.isEmpty else { return [PostgresRow]() }
            return try await connection.query("""
                SELECT group_key, row_version, item FROM courier_outbox
                WHERE store = \(name) AND state = 'pending' AND group_key = ANY(\(claimed))
                ORDER BY seq LIMIT \(max(1, limit))
                """, logger: database.logger).collect()
        }
        var items: [QueuedRequest] = []
        var stopped = Set<String>()
        for row in rows {
            let (group, version, stored) = try row.decode((String, Int, Data).self)
            // A newer Courier's row holds back the rest of its group: delivering past it would break the order.
            if stopped.contains(group) || version > PostgresSchema.rowVersion {
                stopped.insert(group)
                continue
            }
            items.append(try sealing.open(QueuedRequest.self, from: stored, rowVersion: version, table: Self.table))
        }
        return items
    }

    /// Extends this process's leases to `lease` from now on the database's clock; returns the
    /// groups it still holds (one whose lease ended and that another process claimed is not
    /// among them). `now` is not used: see ``claim(now:ignoringBackoff:excluding:limit:)``.
    @discardableResult
    public func renewClaims(now: Date) async throws -> Set<String> {
        let leaseSeconds = lease.timeInterval
        let kept = try await database.withConnection("renewing the outbox's claims") { [self] connection in
            try await connection.query("""
                UPDATE courier_outbox_groups SET leased_until = clock_timestamp() + make_interval(secs => \(leaseSeconds))
                WHERE store = \(name) AND leased_by = \(worker)
                RETURNING group_key
                """, logger: database.logger).collect().map { try $0.decode(String.self) }
        }
        return Set(kept)
    }

    /// Gives back every group this process holds, and removes the lease rows of those left
    /// empty (no write, pending or dead-lettered), so that the table does not keep a row for
    /// every group there ever was.
    ///
    /// A row is removed only under the group's advisory lock, taken alone and without waiting:
    /// a process appending to the group holds it shared until its write is committed, and the
    /// emptiness is checked after the lock is held, so an append never loses its lease row.
    public func releaseClaims() async throws {
        try await database.withTransaction("giving back the outbox's claims") { [self] connection in
            let released = try await connection.query("""
                UPDATE courier_outbox_groups g SET leased_by = NULL, leased_until = NULL WHERE g.store = \(name) AND g.leased_by = \(worker)
                RETURNING g.group_key, NOT EXISTS (SELECT 1 FROM courier_outbox o WHERE o.store = g.store AND o.group_key = g.group_key)
                """, logger: database.logger).collect().map { try $0.decode((String, Bool).self) }
            var locked: [String] = []
            for (group, empty) in released where empty {
                let taken = try await connection.query(
                    "SELECT pg_try_advisory_xact_lock(hashtextextended(\(groupLockKey(group)), 0))", logger: database.logger
                ).collect().first?.decode(Bool.self) ?? false
                if taken { locked.append(group) }
            }
            guard !locked.isEmpty else { return }
            // A statement of its own: it sees every append committed before the locks were taken.
            try await connection.query("""
                DELETE FROM courier_outbox_groups g WHERE g.store = \(name) AND g.group_key = ANY(\(locked)) AND g.leased_by IS NULL
                  AND NOT EXISTS (SELECT 1 FROM courier_outbox o WHERE o.store = g.store AND o.group_key = g.group_key)
                """, logger: database.logger)
        }
    }

    /// The earliest moment a pending write becomes deliverable by this process: its group's
    /// first write's next attempt or, for a group another process holds, the end of its lease.
    /// A group whose first write a newer Courier wrote is not deliverable here (as in ``claim(now:ignoringBackoff:excluding:limit:)``).
    /// The end of a lease, on the database's clock, is given on this process's (`now` plus
    /// the time the lease has left).
    public func nextDelivery(now: Date) async throws -> Date? {
        try await database.withConnection("reading the outbox's next delivery") { [self] connection in
            try await connection.query("""
                WITH heads AS (
                    SELECT DISTINCT ON (group_key) group_key, next_attempt_at, row_version
                    FROM courier_outbox WHERE store = \(name) AND state = 'pending'
                    ORDER BY group_key, seq
                )
                SELECT min(CASE WHEN g.leased_by IS NOT NULL AND g.leased_by <> \(worker)
                                     AND \(now) + (g.leased_until - clock_timestamp()) > h.next_attempt_at
                                THEN \(now) + (g.leased_until - clock_timestamp()) ELSE h.next_attempt_at END)
                FROM heads h JOIN courier_outbox_groups g ON g.store = \(name) AND g.group_key = h.group_key
                WHERE h.row_version <= \(PostgresSchema.rowVersion)
                """, logger: database.logger).collect().first?.decode(Date?.self)
        }
    }
}
