import Foundation

/// The queue's timer: when the next round runs by itself (a backoff ending, a lease ending in
/// a shared storage), and never a timer that would fire at once, again and again.
extension OfflineQueue {
    /// Sets the timer for the next item due, when deliveries can happen; while offline (or
    /// before the queue is attached) connectivity and ``attach(sender:connectivity:)`` wake it.
    func scheduleNextWakeup() async {
        guard sender != nil, !isWaitingForSignIn, connectivity?.status.isReachable ?? true else { return }
        if let shared = storage as? any SharedQueueStorage {
            wakeupAt = nil
            // At least a second away: a write that cannot go now (its account is not signed in)
            // is looked at again once a second, not in a loop. A storage that cannot answer (a
            // database restarting) is asked again in a second too. And at most one lease away,
            // even with nothing pending: the storage's change feed wakes the queue when another
            // process appends, but a feed can go deaf without knowing it (a half-open
            // connection after a failover, a NAT that dropped it), and the poll bounds how long
            // a write can wait for a worker that stopped hearing.
            let poll = clock.date.addingTimeInterval(max(1, shared.lease.timeInterval))
            do {
                let next = try await shared.nextDelivery(now: clock.date)
                scheduleWakeup(at: max(min(next ?? poll, poll), clock.date.addingTimeInterval(1)))
            } catch {
                scheduleWakeup(at: clock.date.addingTimeInterval(1))
            }
            return
        }
        guard let stored = try? await storage.items() else { return }
        let removed = Set(delivered)
        wakeupAt = nil
        if let next = await nextDue(in: stored.filter { !removed.contains($0.id) }) { scheduleWakeup(at: next) }
    }

    /// When the next write among `items` becomes due that a timer can deliver: only the first
    /// pending write of each named queue (or account's, see ``heldBackKey(_:)``) counts, as the
    /// others wait for it, and not when its account cannot deliver now (a sign-in or
    /// ``replay()`` wakes the queue for it), or a timer would fire again at once, in a loop.
    private func nextDue(in items: [QueuedRequest]) async -> Date? {
        var seenQueues = Set<String>()
        var standings: [String: AccountStanding] = [:]
        var next: Date?
        for item in items where item.state == .pending && seenQueues.insert(heldBackKey(item)).inserted {
            if deliversAsOwner, waitingForSignIn[item.account ?? ""] != nil { continue }
            var due = item.nextAttemptAt
            if let owner = item.account {
                if standings[owner] == nil { standings[owner] = await standing(of: owner) }
                switch standings[owner] {
                case .signedIn:
                    break
                case .unknown:
                    // Its account's standing could not be told (an unreadable credential): asked
                    // again a little later rather than left until a sign-in that may never come.
                    due = max(due, clock.date.addingTimeInterval(Self.standingRecheck.timeInterval))
                case .signedOut, nil:
                    continue
                }
            }
            next = min(next ?? due, due)
        }
        return next
    }

    /// Makes sure a replay runs at `date` (or earlier, if one is already set for earlier).
    func scheduleWakeup(at date: Date) {
        if let wakeupAt, wakeupAt <= date, wakeup != nil { return }
        wakeupAt = date
        wakeup?.cancel()
        let deadline = clock.now.advanced(by: .clampedSeconds(date.timeIntervalSince(clock.date)))
        wakeup = Task { [weak self, clock] in
            do { try await clock.sleep(until: deadline) } catch { return }
            await self?.wakeupFired()
        }
        resumeConditionWatches()
    }

    /// A timer's round. Its task is forgotten first, so that a timer set during the round does
    /// not cancel the task the round runs in (a cancelled round stops short). A timer cancelled
    /// between its end and here has been replaced by an earlier one, which does the round.
    private func wakeupFired() async {
        guard !Task.isCancelled else { return }
        wakeup = nil
        wakeupAt = nil
        await run(force: false)
    }
}
