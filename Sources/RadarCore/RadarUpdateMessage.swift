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
///
/// The wire form is described on ``RadarUpdate``.
public enum RadarUpdateMessage: Sendable, Hashable, Codable {
    /// A known update.
    case update(RadarUpdate)
    /// An update of a type this version does not know; its `data` is not read.
    case unknown(type: String, radarId: String)

    private enum CodingKeys: String, CodingKey {
        case type, radarId, data
    }

    /// The case names of the document's `UpdateData` enum.
    private enum PayloadKeys: String, CodingKey {
        case opinion, position, radar
    }

    /// The key Swift's `Codable` gives an enum case's unlabelled associated value.
    private enum AssociatedValueKeys: String, CodingKey {
        case value = "_0"
    }

    /// Decodes the message strictly: `type` and `radarId` are required for every message,
    /// `data` for known types; `data` must match `radarId`.
    /// - Throws: `DecodingError` when the message is malformed.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        let radarId = try container.decode(String.self, forKey: .radarId)
        let update: RadarUpdate
        switch type {
        case "newOpinion":
            update = .newOpinion(try Self.payload(Opinion.self, case: .opinion, in: container))
        case "positionChange":
            update = .positionChange(radarId: radarId, position: try Self.payload(Position.self, case: .position, in: container))
        case "refresh":
            update = .refresh(try Self.payload(Radar.self, case: .radar, in: container))
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

    /// Reads `data` as the document's enum (`{"opinion": {"_0": …}}`) or, failing that, as the
    /// bare payload; for a position, `{"position": "against"}` counts as bare.
    private static func payload<Payload: Decodable>(
        _: Payload.Type, case name: PayloadKeys, in container: KeyedDecodingContainer<CodingKeys>
    ) throws -> Payload {
        if let tagged = try? container.nestedContainer(keyedBy: PayloadKeys.self, forKey: .data), tagged.contains(name) {
            if let value = try? tagged.nestedContainer(keyedBy: AssociatedValueKeys.self, forKey: name) {
                return try value.decode(Payload.self, forKey: .value)
            }
            if Payload.self == Position.self { return try tagged.decode(Payload.self, forKey: name) }
        }
        return try container.decode(Payload.self, forKey: .data)
    }

    /// Encodes the document's form; an unknown message encodes without `data`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .update(let update):
            try container.encode(update.type, forKey: .type)
            try container.encode(update.radarId, forKey: .radarId)
            var data = container.nestedContainer(keyedBy: PayloadKeys.self, forKey: .data)
            switch update {
            case .newOpinion(let opinion):
                var value = data.nestedContainer(keyedBy: AssociatedValueKeys.self, forKey: .opinion)
                try value.encode(opinion, forKey: .value)
            case .positionChange(_, let position):
                var value = data.nestedContainer(keyedBy: AssociatedValueKeys.self, forKey: .position)
                try value.encode(position, forKey: .value)
            case .refresh(let radar):
                var value = data.nestedContainer(keyedBy: AssociatedValueKeys.self, forKey: .radar)
                try value.encode(radar, forKey: .value)
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
