import Foundation
import Hummingbird

/// The responses to writes sent with an `Idempotency-Key`, kept per user for 24 hours, in a
/// store of bounded size.
///
/// A key moves from absent to in flight (``begin(userId:key:fingerprint:)`` said proceed) to
/// completed (``complete(userId:key:ticket:response:)``), or back to absent when the write
/// failed in a way worth retrying (``abandon(userId:key:ticket:)``).
///
/// Two limits keep it from growing or sticking:
/// - An entry in flight longer than ``inFlightTimeout`` counts as abandoned: a request that
///   died in the middle of its write does not make its key answer 409 forever. A repeat then
///   runs afresh with a new ticket; the first request's late completion is ignored.
/// - At most ``maximumEntries`` entries are kept. A new key that finds the store full evicts
///   an abandoned in-flight entry if there is one, else the oldest completed entry. When every
///   entry is a request still running, the new key is refused (``Decision/full(retryAfterSeconds:)``)
///   rather than an in-flight entry evicted, which would let a duplicate run twice.
actor IdempotencyStore {
    /// How long a completed response is replayed: 24 hours.
    static let retention: TimeInterval = 24 * 60 * 60
    /// How many entries are kept unless configured otherwise.
    static let defaultMaximumEntries = 10_000
    /// How long a request may stay in flight unless configured otherwise: 60 seconds.
    static let defaultInFlightTimeout: TimeInterval = 60

    /// What identifies a request behind a key: a repeat must match all three.
    struct Fingerprint: Hashable, Sendable {
        /// The request method.
        let method: String
        /// The request path, without the query.
        let path: String
        /// The hex SHA-256 of the request body.
        let bodyDigest: String
    }

    /// A response as it is replayed.
    struct StoredResponse: Sendable {
        let status: HTTPResponse.Status
        let headers: HTTPFields
        let body: ByteBuffer
    }

    /// Which run of a key a completion or an abandonment is about: a request whose entry was
    /// taken over after ``inFlightTimeout`` can no longer complete or free it.
    struct Ticket: Hashable, Sendable {
        fileprivate let value: UInt64
    }

    /// What to do with a request that carries a key.
    enum Decision: Sendable {
        /// The key is new (or its previous run was abandoned): handle the request, then
        /// complete or abandon the key with this ticket.
        case proceed(Ticket)
        /// The same request was answered before: send this again.
        case replay(StoredResponse)
        /// The same request is being handled right now.
        case inFlight
        /// The key belongs to a different request.
        case reused
        /// The store is full of requests still running; try again after this many seconds.
        case full(retryAfterSeconds: Int)

        /// What the request does: run with a ticket, or replay a stored answer.
        enum Admission: Sendable {
            case run(Ticket)
            case replay(StoredResponse)
        }

        /// The decision as the request acts on it.
        /// - Throws: ``APIError`` 409 `idempotency_key_in_flight`, 422 `idempotency_key_reused`,
        ///   503 `idempotency_store_full` for the refusals.
        func admission() throws -> Admission {
            switch self {
            case .proceed(let ticket): return .run(ticket)
            case .replay(let stored): return .replay(stored)
            case .inFlight: throw APIError.idempotencyKeyInFlight()
            case .reused: throw APIError.idempotencyKeyReused()
            case .full(let retryAfterSeconds): throw APIError.idempotencyStoreFull(retryAfterSeconds: retryAfterSeconds)
            }
        }
    }

    private enum Entry: Sendable {
        case inFlight(Fingerprint, Ticket, startedAt: Date)
        case completed(Fingerprint, StoredResponse, Ticket, storedAt: Date)
    }

    private struct Scope: Hashable, Sendable {
        let userId: String
        let key: String
    }

    /// An entry's place in an eviction order; stale once the entry has moved on.
    private struct Position: Sendable {
        let scope: Scope
        let ticket: Ticket
    }

    /// The most entries kept; at least 1.
    let maximumEntries: Int
    /// How long an entry may stay in flight before it counts as abandoned, in seconds.
    let inFlightTimeout: TimeInterval

    private var entries: [Scope: Entry] = [:]
    /// In-flight entries in the order they began (oldest first).
    private var inFlightOrder = ArrivalQueue<Position>()
    /// Completed entries in the order they completed (oldest first).
    private var completedOrder = ArrivalQueue<Position>()
    private var lastTicket: UInt64 = 0
    private let clock: @Sendable () -> Date
    /// When expired keys were last swept; sweeping is a full pass, so it runs at most once a
    /// minute (a key is kept at least ``retention``, and at most a minute longer, unless evicted).
    private var lastSweep = Date.distantPast

    /// Creates an empty store.
    /// - Parameters:
    ///   - maximumEntries: The most entries kept, across users; values below 1 count as 1.
    ///   - inFlightTimeout: How long a request may stay in flight before its key counts as
    ///     abandoned, in seconds.
    ///   - clock: The source of the current time.
    init(
        maximumEntries: Int = IdempotencyStore.defaultMaximumEntries,
        inFlightTimeout: TimeInterval = IdempotencyStore.defaultInFlightTimeout,
        clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.maximumEntries = max(maximumEntries, 1)
        self.inFlightTimeout = inFlightTimeout
        self.clock = clock
    }

    /// How many entries are kept now, in flight and completed.
    var entryCount: Int { entries.count }

    /// Decides what to do with a request, and marks the key in flight when it may proceed.
    func begin(userId: String, key: String, fingerprint: Fingerprint) -> Decision {
        let now = clock()
        forgetExpired(now: now)
        let scope = Scope(userId: userId, key: key)
        if let entry = entries[scope] {
            if let answer = decision(for: entry, fingerprint: fingerprint, now: now) { return answer }
            // An expired entry is replaced in place: no room is needed.
        } else if case .full(let retryAfterSeconds) = makeRoom(now: now) {
            return .full(retryAfterSeconds: retryAfterSeconds)
        }
        lastTicket &+= 1
        let ticket = Ticket(value: lastTicket)
        entries[scope] = .inFlight(fingerprint, ticket, startedAt: now)
        inFlightOrder.append(Position(scope: scope, ticket: ticket))
        return .proceed(ticket)
    }

    /// Stores the response of a request that ``begin(userId:key:fingerprint:)`` let proceed.
    ///
    /// Does nothing when the key has moved on since: taken over after ``inFlightTimeout``.
    func complete(userId: String, key: String, ticket: Ticket, response: StoredResponse) {
        let scope = Scope(userId: userId, key: key)
        guard case .inFlight(let fingerprint, let current, _) = entries[scope], current == ticket else { return }
        entries[scope] = .completed(fingerprint, response, ticket, storedAt: clock())
        completedOrder.append(Position(scope: scope, ticket: ticket))
    }

    /// Frees a key whose request did not complete, so that a retry is handled afresh.
    /// - Parameter ticket: The run to abandon; `nil` abandons whichever run is in flight.
    func abandon(userId: String, key: String, ticket: Ticket? = nil) {
        let scope = Scope(userId: userId, key: key)
        guard case .inFlight(_, let current, _) = entries[scope], ticket == nil || current == ticket else { return }
        entries[scope] = nil
    }

    // MARK: - Helpers

    /// The decision an entry gives, or `nil` when it has expired and the request may proceed.
    private func decision(for entry: Entry, fingerprint: Fingerprint, now: Date) -> Decision? {
        switch entry {
        case .inFlight(let stored, _, let startedAt):
            guard !isAbandoned(startedAt: startedAt, now: now) else { return nil }
            return stored == fingerprint ? .inFlight : .reused
        case .completed(let stored, let response, _, let storedAt):
            guard !isExpired(storedAt: storedAt, now: now) else { return nil }
            return stored == fingerprint ? .replay(response) : .reused
        }
    }

    private func isAbandoned(startedAt: Date, now: Date) -> Bool {
        startedAt <= now.addingTimeInterval(-inFlightTimeout)
    }

    private func isExpired(storedAt: Date, now: Date) -> Bool {
        storedAt <= now.addingTimeInterval(-Self.retention)
    }

    /// Whether a position still points at the in-flight entry it was made for.
    private func isCurrentInFlight(_ position: Position) -> Bool {
        if case .inFlight(_, let ticket, _) = entries[position.scope] { return ticket == position.ticket }
        return false
    }

    /// Whether a position still points at the completed entry it was made for.
    private func isCurrentCompleted(_ position: Position) -> Bool {
        if case .completed(_, _, let ticket, _) = entries[position.scope] { return ticket == position.ticket }
        return false
    }

    private enum Room {
        case available
        case full(retryAfterSeconds: Int)
    }

    /// Frees one entry when the store is full: an abandoned in-flight entry, else the oldest
    /// completed one; amortised O(1), as both orders are queues.
    private func makeRoom(now: Date) -> Room {
        guard entries.count >= maximumEntries else { return .available }
        while let oldest = inFlightOrder.first {
            guard isCurrentInFlight(oldest) else {
                inFlightOrder.removeFirst()
                continue
            }
            guard case .inFlight(_, _, let startedAt) = entries[oldest.scope],
                  isAbandoned(startedAt: startedAt, now: now) else { break }
            entries[oldest.scope] = nil
            inFlightOrder.removeFirst()
            return .available
        }
        while let oldest = completedOrder.removeFirst() {
            if isCurrentCompleted(oldest) {
                entries[oldest.scope] = nil
                return .available
            }
        }
        return .full(retryAfterSeconds: retryAfterWhenFull(now: now))
    }

    /// Whole seconds until the oldest request in flight counts as abandoned, at least 1.
    private func retryAfterWhenFull(now: Date) -> Int {
        guard let oldest = inFlightOrder.first, case .inFlight(_, _, let startedAt) = entries[oldest.scope] else { return 1 }
        let seconds = startedAt.addingTimeInterval(inFlightTimeout).timeIntervalSince(now).rounded(.up)
        guard seconds.isFinite, seconds < Double(Int.max) else { return Int.max }
        return max(Int(seconds), 1)
    }

    /// Forgets completed entries past ``retention`` and in-flight ones past ``inFlightTimeout``,
    /// at most once a minute, and drops the stale places in both orders.
    private func forgetExpired(now: Date) {
        guard now.timeIntervalSince(lastSweep) >= 60 else { return }
        lastSweep = now
        entries = entries.filter { _, entry in
            switch entry {
            case .inFlight(_, _, let startedAt): return !isAbandoned(startedAt: startedAt, now: now)
            case .completed(_, _, _, let storedAt): return !isExpired(storedAt: storedAt, now: now)
            }
        }
        inFlightOrder.keep { isCurrentInFlight($0) }
        completedOrder.keep { isCurrentCompleted($0) }
    }
}
