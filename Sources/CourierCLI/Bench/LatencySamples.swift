/// Latencies of many operations and the wall time they took, summarised as rate and percentiles.
struct LatencySamples: Sendable {
    private(set) var latencies: [Duration] = []
    private(set) var wallTime: Duration = .zero
    /// The rate of each batch added (each round of an ``InterleavedRun``), in order.
    private(set) var roundRates: [Double] = []

    mutating func add(_ other: [Duration], wallTime: Duration) {
        latencies.append(contentsOf: other)
        self.wallTime += wallTime
        let seconds = Self.seconds(wallTime)
        roundRates.append(seconds > 0 ? Double(other.count) / seconds : 0)
    }

    var count: Int { latencies.count }

    /// Operations per second over the summed wall time.
    var rate: Double {
        let seconds = Self.seconds(wallTime)
        return seconds > 0 ? Double(latencies.count) / seconds : 0
    }

    /// The latency at quantile `q` (0…1), in milliseconds.
    func percentileMilliseconds(_ q: Double) -> Double {
        guard !latencies.isEmpty else { return 0 }
        let sorted = latencies.sorted()
        let index = min(sorted.count - 1, Int((Double(sorted.count) * q).rounded(.up)) - 1)
        return Self.seconds(sorted[max(0, index)]) * 1_000
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
