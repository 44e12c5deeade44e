public import Foundation

/// Courier's default JSON coders: ISO 8601 dates, read with or without fractional seconds.
public enum JSONCoding {
    /// A decoder that reads ISO 8601 dates with or without fractional seconds and with any
    /// UTC offset (`2026-11-22T10:00:00Z`, `2026-11-22T10:00:00.123+01:00`).
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseISO8601(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "expected an ISO 8601 date, found \"\(text)\""
                )
            }
            return date
        }
        return decoder
    }

    /// An encoder that writes ISO 8601 dates in UTC, and object keys sorted, so that a value
    /// always encodes to the same bytes (a write sent again with its idempotency key then
    /// matches its first body).
    ///
    /// A date on a whole second is written as Foundation's `.iso8601` strategy writes it
    /// (`2026-11-22T10:00:00Z`), the form the apps' documents use and their decoders require;
    /// a date with a fraction of a second keeps it, to the millisecond
    /// (`2026-11-22T10:00:00.250Z`), rather than lose it.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(format(date))
        }
        return encoder
    }

    /// An ISO 8601 date-time in UTC: without fractional seconds on a whole second, with
    /// milliseconds otherwise.
    /// - Parameter date: The date.
    /// - Returns: The text.
    public static func format(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        return seconds == seconds.rounded(.down) ? date.formatted(withoutFractions) : date.formatted(withFractions)
    }

    /// Parses an ISO 8601 date-time, with or without fractional seconds.
    /// - Parameter text: The text.
    /// - Returns: The date, or `nil` if the text is not an ISO 8601 date-time.
    public static func parseISO8601(_ text: String) -> Date? {
        if let date = try? withFractions.parse(text) { return date }
        return try? withoutFractions.parse(text)
    }

    private static let withFractions = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let withoutFractions = Date.ISO8601FormatStyle()
}
