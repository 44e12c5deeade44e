public import Foundation

/// The JSON conventions of the Radar API: ISO 8601 dates (written without fractional
/// seconds, read with or without them), sorted keys.
public enum RadarJSON {
    /// An encoder for Radar values.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// A decoder for Radar values.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
            let withoutFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: false)
            guard let date = (try? withoutFraction.parse(text)) ?? (try? withFraction.parse(text)) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected an ISO 8601 date, found \"\(text)\"")
            }
            return date
        }
        return decoder
    }
}
