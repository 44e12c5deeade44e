import Foundation

/// A delivery round's walk through the pending writes: in order, each named queue (each
/// account's, in a shared storage) held back at its first write that cannot go; and, from a
/// shared storage, by claims.
extension OfflineQueue {
    /// Delivers from a storage other processes deliver from too: claims groups of writes,
    /// delivers them, gives them back, and claims again until a claim brings nothing new. A
    /// group held back in a round (a write that failed, an account not signed in, a lease lost)
    /// is not claimed again in it, so a failing write is tried once per round and held-back
    /// groups never crowd out the others; groups waiting for a sign-in are not claimed at all,
    /// for ``signInWaitInSharedStorage``.
    func deliverClaimed(from shared: any SharedQueueStorage, ignoringBackoff: Bool) async {
        let now = clock.date
        waitingForSignIn = waitingForSignIn.filter { now.timeIntervalSince($0.value.since) < Self.signInWaitInSharedStorage }
        var heldBack = waitingForSignIn.values.reduce(into: Set<String>()) { $0.formUnion($1.groups) }
        while !Task.isCancelled, !isWaitingForSignIn {
            // The lease is timed here on the monotonic clock, from before the claim's statement.
            let claimedAt = clock.now
            guard let claimed = try? await shared.claim(now: clock.date, ignoringBackoff: ignoringBackoff, excluding: heldBack, limit: Self.claimLimit),
                  !claimed.isEmpty else { return }
            let removed = Set(delivered)
            // Renewed in the background for as long as the writes take, however long one of them does.
            let lease = ClaimLease(groups: Set(claimed.map { type(of: shared).groupKey(of: $0) }), claimedAt: claimedAt, duration: shared.lease)
            let renewal = Task { [clock] in await lease.keepRenewed(in: shared, clock: clock) }
            let (progress, held) = await deliver(claimed.filter { !removed.contains($0.id) }, ignoringBackoff: ignoringBackoff, lease: lease)
            renewal.cancel()
            let heldBefore = heldBack.count
            heldBack.formUnion(held)
            await flushDelivered()
            // Given back even when removing failed: the writes stay pending, and are delivered
            // again with their keys (the server answers a repeat as it answered the first).
            // When giving back fails, the round ends: a release still under way must not land
            // after a new claim of the same groups (the next round is a timer's, a second on).
            do { try await shared.releaseClaims() } catch { return }
            if progress == 0 && heldBack.count == heldBefore { return }
        }
    }

    /// The most writes claimed at a time from a shared storage.
    static let claimLimit = 100

    /// Delivers the pending writes among `items` (in order), holding back each named queue
    /// at its first write that cannot go. Returns how many went (delivered or dead-lettered),
    /// and what was held back.
    @discardableResult
    func deliver(
        _ items: [QueuedRequest], ignoringBackoff: Bool, lease: ClaimLease? = nil
    ) async -> (progress: Int, heldBack: Set<String>) {
        guard let sender else { return (0, []) }
        var standings: [String: AccountStanding] = [:]
        var heldBack = Set<String>()
        var batched = Set<String>()
        var progress = 0
        for item in items where item.state == .pending && !heldBack.contains(heldBackKey(item)) && !batched.contains(item.id) {
            if let owner = item.account {
                let standing: AccountStanding
                if let known = standings[owner] { standing = known } else {
                    standing = await self.standing(of: owner)
                    standings[owner] = standing
                }
                if standing != .signedIn {
                    // Never signed as another user: kept for its account, or dropped by policy,
                    // only when that account is known to be signed out (an unreadable
                    // credential says nothing: the write is kept).
                    if standing == .signedOut, otherAccountWrites == .drop, (try? await storage.remove(id: item.id)) != nil {
                        forget(item)
                        observers.publish(.dropped(id: item.id, reason: "made by another account, which is not signed in"))
                        continue
                    }
                    heldBack.insert(heldBackKey(item))
                    continue
                }
            }
            if deliversAsOwner, waitingForSignIn[item.account ?? ""] != nil {
                // Refused for want of a credential: its account's writes wait for a new one.
                heldBack.insert(heldBackKey(item))
                continue
            }
            if !ignoringBackoff && item.nextAttemptAt > clock.date {
                heldBack.insert(heldBackKey(item))
                continue
            }
            if Task.isCancelled { return (progress, heldBack) }
            if let lease, !lease.holds(heldBackKey(item), at: clock.now) {
                // Its lease ran out (another process may deliver it now): left to that one.
                heldBack.insert(heldBackKey(item))
                continue
            }
            let batch = batch(startingWith: item, in: items, ignoringBackoff: ignoringBackoff)
            let went: Bool
            if batch.writes.count > 1 {
                batched.formUnion(batch.writes.map(\.id))
                went = await deliver(batch, with: sender)
                if went { progress += batch.writes.count }
            } else {
                went = await deliver(item, with: sender)
                if went { progress += 1 }
            }
            guard went else {
                // Without a credential no write can go: the round ends for every queue.
                if isWaitingForSignIn { return (progress, heldBack) }
                heldBack.insert(heldBackKey(item))
                continue
            }
        }
        return (progress, heldBack)
    }

    /// What a write that cannot go holds back: the rest of its named queue; in a shared
    /// storage, or with sessions per account (``deliversAsOwner``), which keep order per
    /// account, the rest of its account's writes in it.
    func heldBackKey(_ item: QueuedRequest) -> String {
        ordersPerAccount ? item.queue + "\u{1F}" + (item.account ?? "") : item.queue
    }
}
