import Foundation
/// Hooks for tests, which wait on the queue's state instead of polling it. Their state
/// (``conditionWatches``) is empty outside tests, so the queue only checks that it is.
extension OfflineQueue {
    /// What a test may wait for with ``waitUntil(_:)``.
    enum TestCondition: Sendable {
        /// A client has attached the queue and its start-up round is over (``isAttached``).
        case attached
        /// At least this many callers wait for a round of their own (``roundWaiterCount``).
        case roundWaiters(atLeast: Int)
        /// The queue's timer is set (``scheduledWakeup``).
        case timerSet
    }

    private func holds(_ condition: TestCondition) -> Bool {
        switch condition {
        case .attached: isAttached
        case .roundWaiters(let count): roundWaiterCount >= count
        case .timerSet: scheduledWakeup != nil
        }
    }

    /// Returns once `condition` holds, or at once when the calling task is cancelled (for
    /// tests: they wait on the queue's state instead of polling it).
    func waitUntil(_ condition: TestCondition) async {
        nextConditionWatch += 1
        let id = nextConditionWatch
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                if Task.isCancelled || holds(condition) {
                    continuation.resume()
                } else {
                    conditionWatches[id] = (condition, continuation)
                }
            }
        } onCancel: {
            Task { await self.endConditionWatch(id) }
        }
    }

    private func endConditionWatch(_ id: Int) {
        conditionWatches.removeValue(forKey: id)?.continuation.resume()
    }

    /// Resumes the tests whose condition now holds.
    func resumeConditionWatches() {
        guard !conditionWatches.isEmpty else { return }
        for (id, watch) in conditionWatches where holds(watch.condition) {
            conditionWatches.removeValue(forKey: id)
            watch.continuation.resume()
        }
    }
}

extension OfflineQueue {
    /// When the queue's timer will next run a round, if one is set (for tests).
    var scheduledWakeup: Date? { wakeup == nil ? nil : wakeupAt }
}
