import Foundation
import HTTPTypes
import Synchronization

/// A durable queue of writes that could not reach the server, delivered later in order,
/// each exactly once in effect.
///
/// ```swift
/// let queue = OfflineQueue(storage: try SQLiteQueueStorage(url: appSupport.appendingPathComponent("queue.sqlite")))
/// var configuration = ClientConfiguration(baseURL: url)
/// configuration.offlineQueue = queue
/// configuration.connectivity = ConnectivityMonitor()
/// let client = APIClient(configuration: configuration, transport: transport)
///
/// var write = HealthData.upload(sample)
/// write.options.isQueueable = true
/// switch try await client.sendOrQueue(write) {
/// case .delivered(let response): show(response.value)
/// case .queued(let id): showPending(id)
/// }
/// ```
///
/// A queueable write (``RequestOptions/isQueueable``, with POST, PUT, PATCH or DELETE) that
/// cannot reach the server, or is sent while the monitor says offline, is stored before the
/// caller hears ``CourierError/Code/queued``. It carries an `Idempotency-Key` chosen before its
/// first attempt and sent on every later one, so a write that reached the server before the
/// connection broke is not applied twice. Replays go through the client's retry and
/// authentication stages (the request is signed afresh; no secret is stored).
///
/// Delivery happens when the client is made (app start), when connectivity returns, when a
/// backoff timer fires, and on ``replay()``. Every attempt counts against ``maxAttempts``,
/// except, when a ``ConnectivityMonitor`` is configured, attempts that could not reach the
/// server at all: the queue then waits for the network instead of using up the write's tries. Within a named queue (``RequestOptions/queueName``)
/// items go in order: an item waiting to be retried holds back the ones behind it. What each
/// attempt leads to is ``QueueDecision/next(after:attempts:maxAttempts:delay:now:)``.
///
/// ## Accounts
/// A write belongs to the account that made it (``QueuedRequest/account``: the signed-in
/// credential's ``Credential/accountID`` when it was queued). It is delivered only while that
/// account is signed in, so it is never signed with another user's credential. While another
/// account (or none) is signed in, its writes wait, and so does every write behind them in
/// their named queue; by default they are kept until their account signs in again (call
/// ``replay()`` after sign-in to deliver them at once). With ``OtherAccountWrites/drop`` they
/// are deleted instead, and the queue reports ``QueueEvent/dropped(id:reason:)``. A write made
/// with a credential that names no account belongs to none and is delivered to whoever is
/// signed in.
///
/// ## Sign-in trouble
/// A replay the server answers with 401 (after the auth stage's refresh, if there is one,
/// failed too), or one that finds no credential, is not dead-lettered: it stays pending, the
/// attempt does not count, and the whole queue waits for a credential. It goes on when the
/// client's ``AuthSession`` signs in or refreshes, or when the app calls ``replay()``. In a
/// client with ``AccountSessions`` only that account's writes wait, until that account has a
/// new credential: one revoked account does not stop the others. (In such a client, order is
/// kept per account within a named queue: a write that cannot go holds back its account's
/// writes behind it, not other accounts'.) A 409 (the server still works on the same
/// `Idempotency-Key`) is tried again after the backoff.
///
/// ## Order with live writes
/// A write sent through the client to a URL that has a write waiting here (one its account
/// may deliver) never overtakes it: the queue first delivers what is due (a write still in its
/// backoff waits for it). If the waiting write still cannot go, a queueable write is queued
/// behind it (in the same named queue), and any other write fails with
/// ``CourierError/Code/queuedWriteAhead``; call ``replay()`` to deliver at once.
///
/// One queue serves one client.
public actor OfflineQueue {
    /// What the queue does with writes made by an account that is not signed in now.
    public enum OtherAccountWrites: Sendable, Hashable {
        /// Keep them until their account signs in again (the default).
        case keep
        /// Delete them, reporting ``QueueEvent/dropped(id:reason:)``: only once their account is
        /// known to be signed out. A credential that cannot be read now (its store failed) keeps
        /// them, and the queue asks again a little later.
        case drop
    }

    /// Says whether the writes of an account may be delivered now (whether it is signed in);
    /// throws when that cannot be told now (its credential could not be read).
    typealias AccountSource = @Sendable (String) async throws -> Bool

    /// How soon the queue asks again about an account whose standing could not be told.
    static let standingRecheck: Duration = .seconds(5)

    /// Whether an account's writes may be delivered now.
    enum AccountStanding {
        /// Signed in: its writes go.
        case signedIn
        /// Known to be signed out: its writes wait, or are dropped by policy.
        case signedOut
        /// Its credential could not be read: nothing is decided for it (see ``standingRecheck``).
        case unknown
    }

    /// An account's standing now.
    func standing(of account: String) async -> AccountStanding {
        guard let mayDeliverAs else { return .signedOut }
        do { return try await mayDeliverAs(account) ? .signedIn : .signedOut } catch { return .unknown }
    }

    /// The queue name used when a request names none.
    public static let defaultQueueName = "default"

    /// Sends one request through the chain below the queue (retry, authentication, transport).
    typealias Sender = @Sendable (HTTPRequest, HTTPBody?, RequestContext) async throws -> (HTTPResponse, HTTPBody?)

    /// Where items are kept.
    public nonisolated let storage: any QueueStorage
    /// The most delivery attempts before an item is dead-lettered.
    public nonisolated let maxAttempts: Int
    /// The waits between attempts of an item.
    public nonisolated let backoff: Backoff
    /// The clock for `createdAt`, backoff and timers.
    public nonisolated let clock: any CourierClock
    /// What happens to writes of an account that is not signed in.
    public nonisolated let otherAccountWrites: OtherAccountWrites
    /// The rules by which several queued writes go as one call (``WriteBatcher``); none by default.
    public nonisolated let batchers: [WriteBatcher]

    nonisolated let observers = EventBroadcast<QueueEvent>()
    var sender: Sender?
    var mayDeliverAs: AccountSource?
    /// Whether replays name their write's account (``RequestOptions/account``): the client
    /// signs for many accounts (``AccountSessions``).
    var deliversAsOwner = false
    private var sharedWatch: Task<Void, Never>?
    var connectivity: ConnectivityMonitor?
    private var isReplaying = false
    var replayRequested = false
    var forceRequested = false
    /// Callers of `run(force:)` waiting for the round they asked for.
    private var roundWaiters: [CheckedContinuation<Void, Never>] = []
    /// Whether order is kept per account within a named queue rather than per named queue: in
    /// a shared storage, or with sessions per account. A write that cannot go then holds back
    /// only its account's writes behind it (``heldBackKey(_:)``).
    var ordersPerAccount: Bool { storage is any SharedQueueStorage || deliversAsOwner }
    /// How many callers wait for a round (for tests).
    var roundWaiterCount: Int { roundWaiters.count }
    /// Tests waiting in ``waitUntil(_:)``, by id; always empty outside tests.
    var conditionWatches: [Int: (condition: TestCondition, continuation: CheckedContinuation<Void, Never>)] = [:]
    var nextConditionWatch = 0
    var wakeup: Task<Void, Never>?
    var wakeupAt: Date?
    private var connectivityWatch: Task<Void, Never>?
    private var credentialWatch: Task<Void, Never>?
    private var accountWatch: Task<Void, Never>?
    /// Whether a replay was refused for want of a credential: nothing is sent until one comes.
    var isWaitingForSignIn = false
    /// With sessions per account (``deliversAsOwner``), the accounts whose replay was refused
    /// for want of a credential (`""` for writes that name none), each with the groups
    /// (``heldBackKey(_:)``) its refused writes are in: their writes wait for a new credential,
    /// and a shared storage's claims leave those groups out, so that they never crowd out the others.
    var waitingForSignIn: [String: SignInWait] = [:]
    /// How long an account waits for a sign-in in a shared storage before its writes are tried
    /// again: another process (one that delivers nothing, such as the one the user signs in
    /// through) may have saved a new credential, which only a use of the account's session
    /// reads. A session still refused fails at once, without a call to the server.
    static let signInWaitInSharedStorage: TimeInterval = 30

    /// The writes of one account that wait for a sign-in.
    struct SignInWait {
        /// Their groups (``heldBackKey(_:)``).
        var groups: Set<String> = []
        /// When the wait began.
        var since: Date
    }
    /// The accounts whose writes wait for a new credential (for tests).
    var accountsWaitingForSignIn: Set<String> { Set(waitingForSignIn.keys) }
    /// Whether a client has attached the queue and its start-up round is over (for tests).
    var isAttached: Bool { hasDeliveredStartupRound }
    private var hasDeliveredStartupRound = false
    /// Pending writes by URL, each with its id, owner and named queue, oldest first: kept up
    /// to date as writes are queued and leave, `nil` after a change it cannot follow (read
    /// again from storage when next needed).
    private var pendingIndex: [String: [PendingEntry]]?
    /// Counts every change to the pending writes (queued, delivered, dead-lettered, dropped,
    /// discarded, put back), so that an index read from storage meanwhile is not kept.
    private var pendingGeneration = 0
    /// Counts credentials that came into force, so that a 401 answered to a replay signed
    /// before the latest one does not start a wait for sign-in the new credential already ended.
    var credentialGeneration = 0
    /// When the last delivery attempt could not reach the server; `nil` once one got an answer.
    var unreachableSince: Date?
    /// Delivered items not yet removed from storage.
    var delivered: [String] = []
    static let deliveredBatch = 128

    /// Makes a queue.
    /// - Parameters:
    ///   - storage: Where items are kept: `SQLiteQueueStorage` to survive restarts and crashes.
    ///   - maxAttempts: Delivery attempts before an item is dead-lettered (5 by default).
    ///   - backoff: The waits between attempts (2 s doubling, with jitter, up to 5 minutes).
    ///   - clock: The clock.
    ///   - otherAccountWrites: What happens to writes of an account that is not signed in
    ///     (kept by default; see "Accounts").
    ///   - batchers: Rules by which several queued writes go as one call; none by default.
    public init(
        storage: any QueueStorage,
        maxAttempts: Int = 5,
        backoff: Backoff = Backoff(.exponential(base: .seconds(2), multiplier: 2), maxDelay: .seconds(300)),
        clock: any CourierClock = SystemClock(),
        otherAccountWrites: OtherAccountWrites = .keep,
        batchers: [WriteBatcher] = []
    ) {
        self.storage = storage
        self.maxAttempts = max(1, maxAttempts)
        self.backoff = backoff
        self.clock = clock
        self.otherAccountWrites = otherAccountWrites
        self.batchers = batchers
    }

    deinit {
        wakeup?.cancel()
        connectivityWatch?.cancel()
        credentialWatch?.cancel()
        accountWatch?.cancel()
        sharedWatch?.cancel()
    }

    // MARK: - The app's view

    /// What happens to queued writes, from now on.
    public nonisolated func events() -> AsyncStream<QueueEvent> {
        observers.stream()
    }

    /// The writes waiting to be delivered, oldest first.
    public func pending() async throws -> [QueuedRequest] {
        let removed = Set(delivered)
        return try await storage.items().filter { $0.state == .pending && !removed.contains($0.id) }
    }

    /// The writes given up on, oldest first, with the server's answer when it refused them.
    public func deadLetters() async throws -> [QueuedRequest] {
        try await storage.items().filter { $0.state == .deadLettered }
    }

    /// Puts a dead-lettered write back in its queue with a fresh attempt count, and delivers.
    /// - Throws: ``CourierError/Code/invalidRequest`` when there is no such dead letter.
    public func retry(id: String) async throws {
        guard var item = try await storage.items().first(where: { $0.id == id && $0.state == .deadLettered }) else {
            throw CourierError(code: .invalidRequest, message: "no dead-lettered write \(id)")
        }
        item.state = .pending
        item.attempts = 0
        item.nextAttemptAt = clock.date
        item.deadLetterStatus = nil
        item.deadLetterBody = nil
        defer { indexNeedsReading() }
        try await storage.update(item)
        indexNeedsReading()
        await replay()
    }

    /// Deletes a write, delivered or not. The app's decision: the queue never discards on its own.
    public func discard(id: String) async throws {
        defer { indexNeedsReading() }
        try await storage.remove(id: id)
    }

    /// After a change the index cannot follow: it is read again from storage when next needed,
    /// and a read already under way is not kept.
    private func indexNeedsReading() {
        pendingIndex = nil
        pendingGeneration &+= 1
    }

    /// Delivers every pending write now, without waiting for backoff timers, in order within
    /// each queue; returns when this round of deliveries is over.
    ///
    /// When a round is already under way (a timer's, or the one that starts when the client is
    /// made), this asks for one more round and returns when that one is over. It also ends a
    /// wait for sign-in (see "Sign-in trouble"): call it after the user signs in again.
    public func replay() async {
        isWaitingForSignIn = false
        waitingForSignIn.removeAll()
        await run(force: true)
    }

    // MARK: - The client's side

    /// Connects the queue to the chain below it; delivers what an earlier run left (app start)
    /// and follows connectivity.
    func attach(
        sender: @escaping Sender, connectivity: ConnectivityMonitor?, account: AccountSource? = nil,
        credentialChanges: AsyncStream<Void>? = nil, accountChanges: AsyncStream<String>? = nil, deliversAsOwner: Bool = false
    ) async {
        self.sender = sender
        self.mayDeliverAs = account
        self.deliversAsOwner = deliversAsOwner
        self.connectivity = connectivity
        sharedWatch?.cancel()
        if let shared = storage as? any SharedQueueStorage {
            // Another process queued a write: deliver at once.
            let changes = shared.changes()
            sharedWatch = Task { [weak self] in
                for await _ in changes { await self?.run(force: false) }
            }
        }
        credentialWatch?.cancel()
        accountWatch?.cancel()
        if let credentialChanges {
            // With sessions per account, the client's own session signs the writes that name no account.
            credentialWatch = Task { [weak self] in
                for await _ in credentialChanges {
                    if deliversAsOwner { await self?.credentialArrived(for: "") } else { await self?.credentialArrived() }
                }
            }
        }
        if let accountChanges {
            accountWatch = Task { [weak self] in
                for await account in accountChanges { await self?.credentialArrived(for: account) }
            }
        }
        connectivityWatch?.cancel()
        if let connectivity {
            connectivityWatch = Task { [weak self] in
                var wasReachable = connectivity.status.isReachable
                for await status in connectivity.updates() {
                    if status.isReachable && !wasReachable { await self?.run(force: true) }
                    wasReachable = status.isReachable
                }
            }
        }
        await run(force: true)
        hasDeliveredStartupRound = true
        resumeConditionWatches()
    }

    /// A new credential is in force: a queue waiting for one goes on, and writes kept for an
    /// account that was not signed in are looked at again (no timer is set for them).
    private func credentialArrived() async {
        credentialGeneration &+= 1
        let wasWaiting = isWaitingForSignIn
        isWaitingForSignIn = false
        await run(force: wasWaiting)
    }

    /// An account (`""`: the client's own session) has a new credential: its writes, if they
    /// wait for one, go on. (A shared storage's writes are looked at every second anyway; a
    /// local one's have no timer while their account cannot deliver.) The round keeps every
    /// other write's backoff: a write refused for want of a credential kept its due date.
    private func credentialArrived(for account: String) async {
        credentialGeneration &+= 1
        let wasWaiting = waitingForSignIn.removeValue(forKey: account) != nil
        guard wasWaiting || !(storage is any SharedQueueStorage) else { return }
        await run(force: false)
    }

    /// The pending writes to `url`, oldest first: each one's account and named queue. A shared
    /// storage is asked each time (other processes queue and deliver too); a local one's are
    /// kept in an index.
    /// - Throws: The shared storage's error when it cannot be read.
    func pendingWrites(to url: String) async throws -> [(account: String?, queue: String)] {
        if let shared = storage as? any SharedQueueStorage {
            let writes = try await shared.pendingWrites(to: url)
            let removed = Set(delivered)
            return writes.filter { !removed.contains($0.id) }.map { ($0.account, $0.queue) }
        }
        if pendingIndex == nil {
            let generation = pendingGeneration
            guard let stored = try? await storage.items() else { return [] }
            let removed = Set(delivered)
            var index: [String: [PendingEntry]] = [:]
            for item in stored where item.state == .pending && !removed.contains(item.id) {
                index[item.url, default: []].append(PendingEntry(item))
            }
            // A write queued while storage was being read may be missing: read again next time.
            if generation == pendingGeneration { pendingIndex = index } else { return index[url]?.map { ($0.account, $0.queue) } ?? [] }
        }
        return pendingIndex?[url]?.map { ($0.account, $0.queue) } ?? []
    }

    /// Delivers what is due now, without ending a wait for sign-in or cutting a backoff short
    /// (for a live write that must not overtake a queued one: attempts it makes count, so a
    /// burst of live writes to a server that is down must not use up the queued ones' tries).
    /// After a delivery could not reach the server, it tries nothing until a round (a timer's,
    /// connectivity's or ``replay()``) gets an answer again: during an outage live writes are
    /// queued behind or refused at once, and cost the queued writes none of their attempts.
    func deliverAhead() async {
        guard unreachableSince == nil else { return }
        // In a task of its own: a live caller that is cancelled or times out must not cut a
        // queued write's delivery short (and cost it an attempt).
        await Task { await self.run(force: false) }.value
    }

    /// One pending write in ``pendingIndex``.
    private struct PendingEntry {
        let id: String
        let account: String?
        let queue: String
        init(_ item: QueuedRequest) {
            (id, account, queue) = (item.id, item.account, item.queue)
        }
    }

    /// Takes a write that is no longer pending out of the index.
    func forget(_ item: QueuedRequest) {
        pendingGeneration &+= 1
        pendingIndex?[item.url]?.removeAll { $0.id == item.id }
        if pendingIndex?[item.url]?.isEmpty == true { pendingIndex?[item.url] = nil }
    }

    /// Stores a write; it is durable when this returns.
    /// - Parameters:
    ///   - item: The write.
    ///   - dueNow: Whether it is delivered at once (a write sent to the outbox before any
    ///     attempt) rather than after the backoff of a first failed attempt.
    func enqueue(_ item: QueuedRequest, dueNow: Bool = false) async throws {
        var item = item
        var generator = SystemRandomNumberGenerator()
        item.nextAttemptAt = dueNow ? item.createdAt : item.createdAt.addingTimeInterval(backoff.delay(afterFailedAttempts: 1, using: &generator).timeInterval)
        pendingGeneration &+= 1
        try await storage.append(item)
        pendingIndex?[item.url, default: []].append(PendingEntry(item))
        observers.publish(.queued(id: item.id))
        if dueNow, sender != nil {
            Task { await self.run(force: false) }
        } else {
            scheduleWakeup(at: item.nextAttemptAt)
        }
    }

    // MARK: - Delivery

    /// One delivery round at a time. A call that arrives during a round asks for another one
    /// and waits for it, so that ``replay()`` always returns after a round that began after it
    /// was called (a timer's or the start-up round may be running already).
    func run(force: Bool) async {
        if isReplaying {
            replayRequested = true
            forceRequested = forceRequested || force
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                roundWaiters.append(continuation)
                resumeConditionWatches()
            }
            return
        }
        isReplaying = true
        var forced = force
        repeat {
            replayRequested = false
            await deliverDue(ignoringBackoff: forced)
            forced = forceRequested
            forceRequested = false
            // Requests that arrive while delivered items are being removed get their round too.
            if !replayRequested { await flushDelivered() }
        } while replayRequested
        isReplaying = false
        if Task.isCancelled, !roundWaiters.isEmpty {
            // The caller running this round was cancelled, which cut the round short; those
            // waiting on it still get a whole round, in a task of its own.
            Task { await self.run(force: true) }
            return
        }
        let waiters = roundWaiters
        roundWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
        await scheduleNextWakeup()
    }

    func flushDelivered() async {
        guard !delivered.isEmpty else { return }
        let ids = delivered
        delivered.removeAll()
        do {
            try await storage.remove(ids: ids)
        } catch {
            delivered.insert(contentsOf: ids, at: 0)
        }
    }

    private func deliverDue(ignoringBackoff: Bool) async {
        guard !isWaitingForSignIn, sender != nil else { return }
        if let connectivity, !connectivity.status.isReachable { return }
        if let shared = storage as? any SharedQueueStorage {
            await deliverClaimed(from: shared, ignoringBackoff: ignoringBackoff)
            return
        }
        guard let stored = try? await storage.items() else { return }
        let removed = Set(delivered)
        _ = await deliver(stored.filter { !removed.contains($0.id) }, ignoringBackoff: ignoringBackoff)
    }
}
