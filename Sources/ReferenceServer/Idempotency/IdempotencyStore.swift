import Foundation
import Hummingbird

/// The responses to writes sent with an `Idempotency-Key`, kept per user for 24 hours.
///
/// A key moves from absent to in flight (``begin(userId:key:fingerprint:)`` said proceed) to
/// completed (``complete(userId:key:response:)``), or back to absent when the write failed
/// in a way worth retrying (``abandon(userId:key:)``).
actor IdempotencyStore {
    /// How long a completed response is replayed: 24 hours.
    static let retention: TimeInterval = 24 * 60 * 60

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

    /// What to do with a request that carries a key.
    enum Decision: Sendable {
        /// The key is new: handle the request, then complete or abandon the key.
        case proceed
        /// The same request was answered before: send this again.
        case replay(StoredResponse)
        /// The same request is being handled right now.
        case inFlight
        /// The key belongs to a different request.
        case reused
    }

    private enum Entry: Sendable {
        case inFlight(Fingerprint)
        case completed(Fingerprint, StoredResponse, storedAt: Date)
    }

    private struct Scope: Hashable, Sendable {
        let userId: String
        let key: String
    }

    private var entries: [Scope: Entry] = [:]
    private let clock: @Sendable () -> Date
    /// When expired keys were last swept; sweeping is a full pass, so it runs at most once a
    /// minute (a key is kept at least ``retention``, and at most a minute longer).
    private var lastSweep = Date.distantPast

    /// Creates an empty store.
    /// - Parameter clock: The source of the current time.
    init(clock: @escaping @Sendable () -> Date = Date.init) {
        self.clock = clock
    }

    /// Decides what to do with a request, and marks a new key in flight.
    func begin(userId: String, key: String, fingerprint: Fingerprint) -> Decision {
        let now = clock()
        forgetExpired(now: now)
        let scope = Scope(userId: userId, key: key)
        switch entries[scope] {
        case nil:
            entries[scope] = .inFlight(fingerprint)
            return .proceed
        case .inFlight(let stored):
            return stored == fingerprint ? .inFlight : .reused
        case .completed(_, _, let storedAt) where storedAt <= now.addingTimeInterval(-Self.retention):
            entries[scope] = .inFlight(fingerprint)
            return .proceed
        case .completed(let stored, let response, _):
            return stored == fingerprint ? .replay(response) : .reused
        }
    }

    /// Stores the response of a request that ``begin(userId:key:fingerprint:)`` let proceed.
    func complete(userId: String, key: String, response: StoredResponse) {
        let scope = Scope(userId: userId, key: key)
        guard case .inFlight(let fingerprint) = entries[scope] else { return }
        entries[scope] = .completed(fingerprint, response, storedAt: clock())
    }

    /// Frees a key whose request did not complete, so that a retry is handled afresh.
    func abandon(userId: String, key: String) {
        let scope = Scope(userId: userId, key: key)
        if case .inFlight = entries[scope] {
            entries[scope] = nil
        }
    }

    private func forgetExpired(now: Date) {
        guard now.timeIntervalSince(lastSweep) >= 60 else { return }
        lastSweep = now
        let oldest = now.addingTimeInterval(-Self.retention)
        entries = entries.filter { _, entry in
            if case .completed(_, _, let storedAt) = entry { return storedAt > oldest }
            return true
        }
    }
}
