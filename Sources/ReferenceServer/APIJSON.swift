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

    /// Parses an ISO 8601 date and time, with or without fractional seconds: an RFC 3339
    /// `date-time` (the OpenAPI document's format), every field in range; `12:99:00` is
    /// refused, not rolled over into the next hour.
    static func parseISO8601(_ text: String) -> Date? {
        guard hasFieldsInRange(Array(text.utf8)) else { return nil }
        let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        let withoutFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: false)
        return (try? withFraction.parse(text)) ?? (try? withoutFraction.parse(text))
    }

    /// Whether `bytes` are `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)` with each field in its range,
    /// the day within its month (leap years counted) and the second at most 60 (a leap second).
    private static func hasFieldsInRange(_ bytes: [UInt8]) -> Bool {
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<(start + count)] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              (1...12).contains(month), hour <= 23, minute <= 59, second <= 60 else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...days).contains(day) else { return false }
        var index = 19
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let digits = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > digits else { return false }
        }
        guard index < bytes.count else { return false }
        if bytes[index] == UInt8(ascii: "Z") { return index + 1 == bytes.count }
        guard bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"), bytes.count == index + 6,
              bytes[index + 3] == UInt8(ascii: ":"), let offsetHours = number(index + 1, 2), let offsetMinutes = number(index + 4, 2) else {
            return false
        }
        return offsetHours <= 23 && offsetMinutes <= 59
    }
}
