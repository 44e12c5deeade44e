public import Foundation
public import OpenAPIRuntime

/// Reads and writes the datetimes of CLARITY's backend (hand-written, beside the generated code:
/// the wire's date form is part of the contract, and both the client, `ClarityAPI`, and the
/// reference server's implementation of the generated server protocol use it), which FastAPI (Pydantic) writes in
/// ISO 8601 with a few habits a strict RFC 3339 parser refuses:
///
/// - fractions of any length, microseconds included (`2025-06-15T08:30:00.123456Z`);
/// - an offset as `Z`, `+00:00`, `+0000` or `+00`, or **no zone at all** for a naive datetime
///   (`2025-06-15T08:30:00`), which this transcoder reads as UTC, the zone the service
///   stores;
/// - a space instead of the `T`.
///
/// It writes UTC with a `Z`, with six fraction digits when the date has a fraction
/// (`2025-06-15T08:30:00.123456Z`) and none when it has not, which FastAPI reads back exactly.
/// Anything else (a date alone, a month 13, trailing text) is a `DecodingError`, so a
/// malformed answer fails by the field it is in rather than decoding wrongly.
public struct ClarityDateTranscoder: DateTranscoder {
    /// Makes a transcoder.
    public init() {}

    /// A `JSONDecoder` that reads dates as this transcoder does, for CLARITY JSON read outside
    /// the generated client (a document on disk, a free-form part of an answer).
    public static func jsonDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        let transcoder = ClarityDateTranscoder()
        decoder.dateDecodingStrategy = .custom { field in
            let container = try field.singleValueContainer()
            return try transcoder.decode(try container.decode(String.self))
        }
        return decoder
    }

    /// Writes `date` in UTC: `YYYY-MM-DDTHH:MM:SS[.ffffff]Z`.
    public func encode(_ date: Date) throws -> String {
        let micros = (date.timeIntervalSince1970 * 1_000_000).rounded()
        guard micros.isFinite, abs(micros) < 9.0e18 else {
            throw EncodingError.invalidValue(date, .init(codingPath: [], debugDescription: "the date is out of range"))
        }
        let total = Int64(micros)
        let seconds = total >= 0 ? total / 1_000_000 : (total - 999_999) / 1_000_000
        let fraction = total - seconds * 1_000_000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = Self.civil(fromDays: days)
        var text = Self.pad(year, 4) + "-" + Self.pad(month, 2) + "-" + Self.pad(day, 2)
        text += "T" + Self.pad(secondOfDay / 3_600, 2) + ":" + Self.pad(secondOfDay % 3_600 / 60, 2) + ":" + Self.pad(secondOfDay % 60, 2)
        if fraction != 0 { text += "." + Self.pad(fraction, 6) }
        return text + "Z"
    }

    /// Reads an ISO 8601 datetime in any of the forms above.
    /// - Throws: `DecodingError.dataCorrupted` for anything else.
    public func decode(_ text: String) throws -> Date {
        guard let date = Self.parse(Array(text.utf8)) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "expected an ISO 8601 datetime, found \"\(text.prefix(64))\""))
        }
        return date
    }

    /// The moment `bytes` names, or `nil` when they are not one of the accepted forms.
    static func parse(_ bytes: [UInt8]) -> Date? {
        var index = 0
        func number(_ width: Int) -> Int64? {
            guard index + width <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[index..<index + width] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            index += width
            return value
        }
        func expect(_ characters: Set<UInt8>) -> Bool {
            guard index < bytes.count, characters.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect([45]), let month = number(2), expect([45]), let day = number(2),
              expect([84, 116, 32]), let hour = number(2), expect([58]), let minute = number(2), expect([58]), let second = number(2),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 61 else { return nil }
        var fraction = 0.0
        if index < bytes.count, bytes[index] == 46 {
            index += 1
            // Up to nine digits count (nanoseconds); more are read and ignored.
            var digits: Int64 = 0
            var scale: Int64 = 1
            let start = index
            while index < bytes.count, (48...57).contains(bytes[index]) {
                if scale < 1_000_000_000 {
                    digits = digits * 10 + Int64(bytes[index] - 48)
                    scale *= 10
                }
                index += 1
            }
            guard index > start else { return nil }
            fraction = Double(digits) / Double(scale)
        }
        var offset: Int64 = 0
        if index < bytes.count {
            if expect([90, 122]) {
                offset = 0
            } else if bytes[index] == 43 || bytes[index] == 45 {
                let sign: Int64 = bytes[index] == 45 ? -1 : 1
                index += 1
                guard let hours = number(2), hours < 24 else { return nil }
                var minutes: Int64 = 0
                if index < bytes.count {
                    _ = expect([58])
                    guard let value = number(2), value < 60 else { return nil }
                    minutes = value
                }
                offset = sign * (hours * 3_600 + minutes * 60)
            } else {
                return nil
            }
        }
        guard index == bytes.count else { return nil }
        let seconds = days(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// Days since 1970-01-01 of a civil date (Howard Hinnant's `days_from_civil`).
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date of a count of days since 1970-01-01 (Howard Hinnant's `civil_from_days`).
    static func civil(fromDays count: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = count + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
