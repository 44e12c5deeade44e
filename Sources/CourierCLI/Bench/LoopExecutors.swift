import NIOCore
import Synchronization

/// A task executor that runs jobs on one NIO event loop: a task that prefers it runs its code
/// between the engine's callbacks on the loop's thread instead of the global pool.
final class EventLoopTaskExecutor: TaskExecutor {
    let loop: any EventLoop

    init(loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// One ``EventLoopTaskExecutor`` per loop of a group, handed out in turn.
final class LoopExecutors: Sendable {
    private let executors: [EventLoopTaskExecutor]
    private let counter = Atomic<Int>(0)

    init(group: any EventLoopGroup) {
        executors = group.makeIterator().map { EventLoopTaskExecutor(loop: $0) }
    }

    /// The next loop's executor.
    func next() -> EventLoopTaskExecutor {
        let turn = counter.add(1, ordering: .relaxed).oldValue
        return executors[turn % executors.count]
    }
}
