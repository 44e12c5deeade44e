import Foundation

/// The JSON conventions of the reference server.
///
/// Responses carry ISO 8601 dates without fractional seconds; request bodies may carry
/// ISO 8601 dates with or without them.
enum APIJSON {
    /// An encoder for response bodies: sorted keys, ISO 8601 dates without fractional seconds.
    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// A decoder for request bodies that accepts ISO 8601 dates with and without fractional seconds.
    static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseISO8601(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "expected an ISO 8601 date, got \"\(text)\""
                )
            }
            return date
        }
        return decoder
    }

    /// Parses an ISO 8601 date and time, with or without fractional seconds.
    static func parseISO8601(_ text: String) -> Date? {
        let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        let withoutFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: false)
        return (try? withFraction.parse(text)) ?? (try? withoutFraction.parse(text))
    }
}
