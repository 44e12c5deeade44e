/// A ratio of two contenders over a whole interleaved run, with the same ratio round by
/// round: its median and range show how far the machine's noise moves it.
struct RoundRatios {
    var overall: Double
    var median: Double
    var lowest: Double
    var highest: Double
    var rounds: Int

    /// `numerator / denominator` overall and for each round's pair; `nil` when no
    /// denominator is positive.
    init?<Rounds: Sequence>(_ numerator: Double, _ denominator: Double, rounds: Rounds) where Rounds.Element == (Double, Double) {
        let perRound = rounds.compactMap { top, bottom in bottom > 0 ? top / bottom : nil }.sorted()
        guard denominator > 0, let lowest = perRound.first, let highest = perRound.last else { return nil }
        let middle = perRound.count / 2
        self.overall = numerator / denominator
        self.median = perRound.count % 2 == 1 ? perRound[middle] : (perRound[middle - 1] + perRound[middle]) / 2
        self.lowest = lowest
        self.highest = highest
        self.rounds = perRound.count
    }
}
