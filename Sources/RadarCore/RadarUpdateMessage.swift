public import Foundation

/// One message of the Radar live-update channel, as decoded: a ``RadarUpdate`` this version
/// knows, or the type and radar of one it does not (to skip and log).
///
/// ```swift
/// switch try RadarUpdateMessage.decode(from: data) {
/// case .update(let update): radar.apply(update)
/// case .unknown(let type, _): logger.info("skipping unknown update type \(type)")
/// }
/// ```
public enum RadarUpdateMessage: Sendable, Hashable, Codable {
    /// A known update.
    case update(RadarUpdate)
    /// An update of a type this version does not know; its `data` is not read.
    case unknown(type: String, radarId: String)

    private enum CodingKeys: String, CodingKey {
        case type, radarId, data
    }

    private struct PositionData: Codable {
        var position: Position
    }

    /// Decodes the tagged object strictly: `type` and `radarId` are required for every
    /// message, `data` for known types; `data` must match `radarId`.
    /// - Throws: `DecodingError` when the message is malformed.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        let radarId = try container.decode(String.self, forKey: .radarId)
        let update: RadarUpdate
        switch type {
        case "newOpinion":
            update = .newOpinion(try container.decode(Opinion.self, forKey: .data))
        case "positionChange":
            update = .positionChange(radarId: radarId, position: try container.decode(PositionData.self, forKey: .data).position)
        case "refresh":
            update = .refresh(try container.decode(Radar.self, forKey: .data))
        default:
            self = .unknown(type: type, radarId: radarId)
            return
        }
        guard update.radarId == radarId else {
            throw DecodingError.dataCorruptedError(
                forKey: .data,
                in: container,
                debugDescription: "data belongs to radar \(update.radarId), not \(radarId)"
            )
        }
        self = .update(update)
    }

    /// Encodes the tagged object; an unknown message encodes without `data`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .update(let update):
            try container.encode(update.type, forKey: .type)
            try container.encode(update.radarId, forKey: .radarId)
            switch update {
            case .newOpinion(let opinion): try container.encode(opinion, forKey: .data)
            case .positionChange(_, let position): try container.encode(PositionData(position: position), forKey: .data)
            case .refresh(let radar): try container.encode(radar, forKey: .data)
            }
        case .unknown(let type, let radarId):
            try container.encode(type, forKey: .type)
            try container.encode(radarId, forKey: .radarId)
        }
    }

    /// Decodes one message from JSON with the Radar API's date format (ISO 8601).
    /// - Parameter data: The JSON.
    /// - Returns: The message.
    /// - Throws: `DecodingError` when it is malformed.
    public static func decode(from data: Data) throws -> RadarUpdateMessage {
        try RadarJSON.decoder().decode(RadarUpdateMessage.self, from: data)
    }

    /// Encodes one update as JSON with the Radar API's date format.
    /// - Parameter update: The update.
    /// - Returns: The JSON.
    /// - Throws: `EncodingError`.
    public static func encode(_ update: RadarUpdate) throws -> Data {
        try RadarJSON.encoder().encode(RadarUpdateMessage.update(update))
    }
}
