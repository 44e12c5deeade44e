import RadarCore

/// The overall position of a set of opinions: the stance with the greatest total
/// confidence, or neutral when there is a tie at the top or no opinion at all.
struct StanceTally: Sendable {
    /// The summed confidence per stance.
    private(set) var weights: [Position: Double] = [:]

    /// Tallies a list of opinions.
    init(_ opinions: [Opinion]) {
        for opinion in opinions {
            weights[opinion.stance, default: 0] += opinion.confidence
        }
    }

    /// The winning stance.
    var position: Position {
        let ranked = Position.allCases
            .map { (stance: $0, weight: weights[$0, default: 0]) }
            .sorted { $0.weight > $1.weight }
        guard let top = ranked.first, top.weight > 0 else { return .neutral }
        let runnerUp = ranked[1].weight
        // Confidences have two decimals; anything closer than this is a tie.
        if abs(top.weight - runnerUp) < 1e-9 { return .neutral }
        return top.stance
    }
}
