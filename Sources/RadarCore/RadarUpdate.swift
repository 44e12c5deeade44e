/// A change to one radar, pushed by the server as it happens (over a WebSocket or an event
/// stream).
///
/// On the wire it is the document's `RadarUpdate` (seed 000): a `type`, the `radarId`, and
/// `data`, the document's `UpdateData` enum as Swift's `Codable` writes an enum with an
/// unlabelled associated value (the case name, then `_0`):
/// ```json
/// {"type": "newOpinion", "radarId": "r_1", "data": {"opinion": {"_0": {"id": "o_7", "stance": "for", …}}}}
/// {"type": "positionChange", "radarId": "r_1", "data": {"position": {"_0": "against"}}}
/// {"type": "refresh", "radarId": "r_1", "data": {"radar": {"_0": {"id": "r_1", "topic": …}}}}
/// ```
/// Decoding also accepts `data` as the bare payload (the opinion, `{"position": "against"}`, or
/// the radar), which servers written in other languages tend to send. Decoding is strict
/// otherwise: a known type with a missing or malformed payload fails. A message of a type this
/// version does not know decodes as ``RadarUpdateMessage/unknown(type:radarId:)`` (see
/// ``RadarUpdateMessage``), so newer servers do not break older clients.
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
