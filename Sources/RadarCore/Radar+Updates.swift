extension Radar {
    /// Merges a live update into the radar.
    ///
    /// - ``RadarUpdate/newOpinion(_:)`` adds the opinion, or replaces the one with its id;
    /// - ``RadarUpdate/positionChange(radarId:position:)`` sets ``position``;
    /// - ``RadarUpdate/refresh(_:)`` replaces the whole radar.
    ///
    /// An update about another radar changes nothing.
    /// - Parameter update: The update.
    /// - Returns: Whether the radar changed.
    @discardableResult
    public mutating func apply(_ update: RadarUpdate) -> Bool {
        guard update.radarId == id else { return false }
        let before = self
        switch update {
        case .newOpinion(let opinion):
            if let index = opinions.firstIndex(where: { $0.id == opinion.id }) {
                opinions[index] = opinion
            } else {
                opinions.append(opinion)
            }
        case .positionChange(_, let position):
            self.position = position
        case .refresh(let radar):
            self = radar
        }
        return self != before
    }
}
