package import NIOCore
import Synchronization

/// A task executor that runs jobs on one NIO event loop. A task that prefers it runs its
/// nonisolated code on the loop's thread instead of the global concurrent pool, so the
/// engine's work for a request (scheduling its deadline, taking a pooled connection, writing
/// the request, resuming the caller when the head arrives) happens on the loop rather than
/// being handed to it from another thread, each hand-over waking the loop.
///
/// Each job goes to the loop in a closure of its own. A queue of the executor's own, drained
/// by one closure made once, was tried: it allocated more per request, not less (the queue's
/// arrays grew and were swapped), for more code.
package final class EventLoopTaskExecutor: TaskExecutor {
    let loop: any EventLoop

    package init(loop: any EventLoop) {
        self.loop = loop
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// One ``EventLoopTaskExecutor`` per loop of a group, handed out in turn.
package final class LoopExecutors: Sendable {
    private let executors: [EventLoopTaskExecutor]
    private let counter = Atomic<UInt>(0)

    package init(group: any EventLoopGroup) {
        executors = group.makeIterator().map { EventLoopTaskExecutor(loop: $0) }
    }

    /// The next loop's executor.
    package func next() -> EventLoopTaskExecutor {
        let turn = counter.add(1, ordering: .relaxed).oldValue
        return executors[Int(turn % UInt(executors.count))]
    }

    /// Returns once each loop has run every task it was handed before this call. The loops must
    /// be running, as for any request on them (NIO treats a task handed to a loop that has shut
    /// down as a programming error).
    package func settle() async {
        // Handed to every loop first, then awaited: the loops catch up side by side.
        let caughtUp = executors.map { $0.loop.submit {} }
        for loop in caughtUp {
            try? await loop.get()
        }
    }
}
