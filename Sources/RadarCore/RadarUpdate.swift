/// A change to one radar, pushed by the server as it happens (over a WebSocket or an event
/// stream).
///
/// On the wire it is an explicitly tagged JSON object:
/// ```json
/// {"type": "newOpinion", "radarId": "r_1", "data": {"id": "o_7", "stance": "for", …}}
/// {"type": "positionChange", "radarId": "r_1", "data": {"position": "against"}}
/// {"type": "refresh", "radarId": "r_1", "data": {"id": "r_1", "topic": …, "opinions": […]}}
/// ```
/// Decoding is strict: a known type with a missing or malformed field fails. A message of a
/// type this version does not know decodes as ``RadarUpdateMessage/unknown(type:radarId:)``
/// (see ``RadarUpdateMessage``), so newer servers do not break older clients.
public enum RadarUpdate: Sendable, Hashable {
    /// The radar gained an opinion.
    case newOpinion(Opinion)
    /// The radar's overall position changed.
    case positionChange(radarId: String, position: Position)
    /// The whole radar, as it is now (after a refresh, or on subscribing).
    case refresh(Radar)

    /// The id of the radar the update is about.
    public var radarId: String {
        switch self {
        case .newOpinion(let opinion): return opinion.radarId
        case .positionChange(let radarId, _): return radarId
        case .refresh(let radar): return radar.id
        }
    }

    /// The wire name of the update's type: `newOpinion`, `positionChange` or `refresh`.
    public var type: String {
        switch self {
        case .newOpinion: return "newOpinion"
        case .positionChange: return "positionChange"
        case .refresh: return "refresh"
        }
    }
}
