/// Runs contenders in turns, round after round, so that a noisy moment of the machine falls
/// on all of them alike; collects each one's latencies and wall time, and the process's CPU
/// time and context switches during its batches.
///
/// Fair to each contender: every one warms up at the concurrency it is measured at (so each
/// opens its connections before round 1), and the order of the turns rotates from one round
/// to the next, so no contender always runs first (on a fresh pool) or last (after the others
/// warmed the caches, the allocator and the CPU's clock).
struct InterleavedRun {
    let rounds: Int
    let perRound: Int
    let concurrency: Int

    typealias Operation = @Sendable () async throws -> Void

    func run(_ contenders: [(String, Operation)]) async throws -> [String: LatencySamples] {
        for (_, operation) in contenders {
            _ = try await Self.measure(operation, count: max(100, 4 * concurrency), concurrency: concurrency)
        }
        var samples = [String: LatencySamples]()
        for round in 0..<rounds {
            let shift = contenders.isEmpty ? 0 : round % contenders.count
            for (name, operation) in contenders[shift...] + contenders[..<shift] {
                let started = ProcessUsage.now()
                let (latencies, wall) = try await Self.measure(operation, count: perRound, concurrency: concurrency)
                samples[name, default: LatencySamples()].add(latencies, wallTime: wall, usage: ProcessUsage.now().since(started))
            }
        }
        return samples
    }

    /// Runs `count` operations with `concurrency` workers; returns each latency and the wall time.
    static func measure(_ operation: @escaping Operation, count: Int, concurrency: Int) async throws -> ([Duration], Duration) {
        let clock = ContinuousClock()
        let started = clock.now
        let latencies = try await withThrowingTaskGroup(of: [Duration].self) { group in
            for worker in 0..<concurrency {
                let share = count / concurrency + (worker < count % concurrency ? 1 : 0)
                group.addTask {
                    var mine = [Duration]()
                    mine.reserveCapacity(share)
                    for _ in 0..<share {
                        let start = clock.now
                        try await operation()
                        mine.append(clock.now - start)
                    }
                    return mine
                }
            }
            var all = [Duration]()
            for try await part in group { all.append(contentsOf: part) }
            return all
        }
        return (latencies, clock.now - started)
    }
}
