import Foundation
import Synchronization

/// What a process may still deliver of the groups it claimed from a ``SharedQueueStorage``:
/// the groups the last renewal kept, until the lease that renewal set ends.
///
/// A round renews its claims in the background while it delivers (``keepRenewed(in:clock:)``),
/// and before each write asks ``holds(_:at:)``: a group the storage gave to another process
/// (this one's lease ran out, during a long delivery or while the database could not be
/// reached) is not delivered from here any more. One delivery already under way can still
/// outlast the lease when renewals fail (a write's own timeout may be longer than the lease);
/// its `Idempotency-Key` then keeps a repeat harmless.
///
/// `Sendable`: its one mutable value lives in a `Mutex`.
final class ClaimLease: Sendable {
    private struct Held {
        var groups: Set<String>
        var until: ContinuousClock.Instant
    }

    private let held: Mutex<Held>
    /// How long a claim lasts without renewal.
    let duration: Duration

    /// The lease of groups claimed at `claimedAt` (an instant on the monotonic clock, taken before
    /// the claim was asked for).
    init(groups: Set<String>, claimedAt: ContinuousClock.Instant, duration: Duration) {
        self.duration = duration
        held = Mutex(Held(groups: groups, until: claimedAt.advanced(by: duration)))
    }

    /// Whether a write of `group` may still be sent at `instant`: the group is held, and its lease
    /// has a third of its length left (the time the delivery about to start may take before the
    /// next renewal extends it).
    func holds(_ group: String, at instant: ContinuousClock.Instant) -> Bool {
        held.withLock { held in
            held.groups.contains(group) && instant < held.until.advanced(by: .zero - duration / 3)
        }
    }

    /// A renewal asked for at `instant` kept these groups.
    func renewed(keeping groups: Set<String>, at instant: ContinuousClock.Instant) {
        let until = instant.advanced(by: duration)
        held.withLock { held in
            held.groups.formIntersection(groups)
            held.until = max(held.until, until)
        }
    }

    /// Renews the claims every third of the lease until cancelled. A renewal that fails (the
    /// database cannot be reached) changes nothing: the lease runs out on its own, and
    /// ``holds(_:at:)`` then says no.
    func keepRenewed(in storage: any SharedQueueStorage, clock: any CourierClock) async {
        while !Task.isCancelled {
            do { try await clock.sleep(until: clock.now.advanced(by: duration / 3)) } catch { return }
            // Timed from before the statement: the storage's lease, on the database's clock,
            // ends no sooner than this process counts on its own monotonic clock.
            let sent = clock.now
            guard let kept = try? await storage.renewClaims(now: clock.date) else { continue }
            renewed(keeping: kept, at: sent)
        }
    }
}
