/// Latencies of many operations and the wall time they took, summarised as rate and percentiles.
struct LatencySamples: Sendable {
    private(set) var latencies: [Duration] = []
    private(set) var wallTime: Duration = .zero
    /// The rate of each batch added (each round of an ``InterleavedRun``), in order.
    private(set) var roundRates: [Double] = []
    /// The process CPU time the batches took, in all (zero unless their usage was given).
    private(set) var cpuSeconds: Double = 0
    /// The process's context switches during the batches, in all.
    private(set) var contextSwitches = 0
    /// The process CPU time per operation of each batch, in order.
    private(set) var roundCPUPerOperation: [Double] = []

    mutating func add(_ other: [Duration], wallTime: Duration, usage: ProcessUsage? = nil) {
        latencies.append(contentsOf: other)
        self.wallTime += wallTime
        if let usage, !other.isEmpty {
            cpuSeconds += usage.cpuSeconds
            contextSwitches += usage.contextSwitches
            roundCPUPerOperation.append(usage.cpuSeconds / Double(other.count))
        }
        let seconds = wallTime.timeInterval
        roundRates.append(seconds > 0 ? Double(other.count) / seconds : 0)
    }

    var count: Int { latencies.count }

    /// The process CPU time per operation over every batch, in microseconds.
    var cpuMicrosecondsPerOperation: Double {
        latencies.isEmpty ? 0 : cpuSeconds / Double(latencies.count) * 1e6
    }

    /// The process's context switches per operation over every batch.
    var contextSwitchesPerOperation: Double {
        latencies.isEmpty ? 0 : Double(contextSwitches) / Double(latencies.count)
    }

    /// Operations per second over the summed wall time.
    var rate: Double {
        let seconds = wallTime.timeInterval
        return seconds > 0 ? Double(latencies.count) / seconds : 0
    }

    /// The latency at quantile `q` (0…1), in milliseconds.
    func percentileMilliseconds(_ q: Double) -> Double {
        guard !latencies.isEmpty else { return 0 }
        let sorted = latencies.sorted()
        let index = min(sorted.count - 1, Int((Double(sorted.count) * q).rounded(.up)) - 1)
        return sorted[max(0, index)].timeInterval * 1_000
    }
}
