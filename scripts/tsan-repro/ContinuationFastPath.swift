// A minimal program for asking whether ThreadSanitizer sees the order a continuation gives when
// it is resumed before its task has reached the `await`. swift-nio's `EventLoopFuture.get()`
// is resumed that way whenever the future's callback runs on the event loop before the awaiting
// task has suspended: `NIOAsyncChannel.executeThenClose` awaits `closeFuture.get()` right after
// asking the channel to close.
//
// A thread writes a plain global, then resumes an `UnsafeContinuation` (as `get()` does); the
// task reads the global once its `await` returns, then calls an async function whose frame
// takes the task-allocator memory the continuation's context had. Swift's concurrency model
// orders everything the thread did before the resume before everything the task does after
// its await (the read always sees the value written: the program counts misses, and there are
// none), but the runtime tells TSan so only on one path:
//
// - `slow`: the task has suspended before the resume. The resume enqueues the task, and the
//   runtime tells TSan that the resume happens before the job runs (`_swift_tsan_release` on
//   resume, `_swift_tsan_acquire` when the job runs). TSan reports nothing.
// - `fast`: the resume comes first. The runtime marks the continuation resumed (after
//   `_swift_tsan_release`), and the task, reaching `swift_continuation_await`, sees that
//   through an atomic and goes straight on, with no `_swift_tsan_acquire`. The atomic is in
//   the uninstrumented runtime, so TSan sees no order. It reports a race between the global's
//   write and read, and one between the resume's read of the continuation's context
//   (`$sScc6resume9returningyxn_tF`, `UnsafeContinuation.resume(returning:)`) and the next
//   frame's write to the same memory: the very shape of the report it gives inside swift-nio.
//
// Swift 5 mode: handing a non-Sendable value to a thread is not what is being tested.
// Built without optimisation, as `swift build` builds the tests, so that
// `resume(returning:)` is emitted into the program and instrumented.
//
//   swiftc -swift-version 5 -parse-as-library -sanitize=thread -Onone scripts/tsan-repro/ContinuationFastPath.swift -o /tmp/continuation-fast-path
//   /tmp/continuation-fast-path fast     # TSan reports data races
//   /tmp/continuation-fast-path slow     # no report
import Foundation
import Synchronization

/// Written by the resuming thread before it resumes; read by the task after its await.
nonisolated(unsafe) var handedOver = 0

/// Set by the resuming thread once `resume` has returned. Relaxed on purpose: an acquiring
/// load here would give TSan an order of its own and hide what is being asked.
let resumed = Atomic<Int>(0)

struct Payload {
    var round: Int
    var padding = (0, 0, 0)
}

/// Resumed by a thread of its own: before this task reaches the await if `fast`, some time
/// after it has suspended if not. What it checks after the await, it checks before the task
/// next changes executor: a later switch would hand TSan an order of its own (the runtime
/// releases and acquires on the task at every enqueue), so the reads must come first.
/// Returns whether the read saw the write.
func handOver(round: Int, fast: Bool) async throws -> Bool {
    let payload = try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Payload, any Error>) in
        Thread {
            if !fast {
                // Give the task time to reach its await and suspend.
                usleep(20_000)
            }
            handedOver = round
            continuation.resume(returning: Payload(round: round))
            resumed.store(round, ordering: .relaxed)
        }.start()
        if fast {
            // Do not return (and so do not reach the await) until the resume is done.
            while resumed.load(ordering: .relaxed) != round {}
        }
    }
    let sawTheWrite = handedOver == payload.round
    _ = await scribble(round)
    return sawTheWrite
}

/// An async function whose locals live in its frame, in the task allocator's memory.
func scribble(_ seed: Int) async -> Int {
    var slots = (seed, seed &+ 1, seed &+ 2, seed &+ 3, seed &+ 4, seed &+ 5, seed &+ 6, seed &+ 7)
    slots.0 = await increment(slots.1)
    return slots.0 &+ slots.1 &+ slots.2 &+ slots.3 &+ slots.4 &+ slots.5 &+ slots.6 &+ slots.7
}

func increment(_ value: Int) async -> Int { value &+ 1 }

@main
struct ContinuationFastPath {
    static func main() async throws {
        let fast = CommandLine.arguments.dropFirst().first != "slow"
        let rounds = fast ? 2_000 : 100
        var misses = 0
        for round in 1...rounds where try await !handOver(round: round, fast: fast) {
            misses += 1
        }
        print("\(fast ? "fast" : "slow"): \(rounds) rounds, \(misses) reads that missed the write")
    }
}
