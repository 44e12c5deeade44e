public import Foundation

/// HTTP dates (RFC 9110, section 5.6.7), read strictly: IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`), and the obsolete RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`)
/// and asctime (`Sun Nov  6 08:49:37 1994`) forms. Names are matched without regard to case,
/// as browsers do; anything else (another time zone, a missing comma, a one-digit hour) is not a
/// date, so a cache treats it as already expired.
public enum HTTPDate {
    /// Parses an HTTP date in any of the three forms.
    /// - Parameters:
    ///   - text: The header value.
    ///   - now: The current date, to place RFC 850's two-digit years (at most 50 years ahead).
    /// - Returns: The date, or `nil` if the text is in none of the forms.
    public static func parse(_ text: String, now: Date = Date()) -> Date? {
        let bytes = ASCII.trimmed(text).utf8.map(ASCII.lower)
        return parseIMFFixdate(bytes) ?? parseRFC850(bytes, now: now) ?? parseAsctime(bytes)
    }

    /// Formats a date as an IMF-fixdate, such as `Sun, 06 Nov 1994 08:49:37 GMT`.
    /// - Parameter date: The date.
    /// - Returns: The text.
    public static func format(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        let weekday = shortDays[((days % 7) + 7) % 7]
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekday), \(two(day)) \(monthNames[month - 1]) \(year) \(two(secondOfDay / 3_600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) GMT"
    }

    // MARK: - The three forms

    private static func parseIMFFixdate(_ b: [UInt8]) -> Date? {
        guard b.count == 29, lowerShortDays.contains(where: { $0.elementsEqual(b[0..<3]) }), b[3] == comma, b[4] == space,
              b[7] == space, b[11] == space, b[16] == space, b[25] == space, b[26...28].elementsEqual("gmt".utf8),
              let day = number(b[5..<7]), let month = month(b[8..<11]), let year = number(b[12..<16]),
              let time = time(b[17..<25]) else { return nil }
        return date(year: year, month: month, day: day, time: time)
    }

    private static func parseRFC850(_ b: [UInt8], now: Date) -> Date? {
        guard let commaIndex = b.firstIndex(of: comma), lowerLongDays.contains(where: { $0.elementsEqual(b[..<commaIndex]) }) else { return nil }
        let rest = b[(commaIndex + 1)...]
        guard rest.count == 23 else { return nil }
        let r = Array(rest)
        guard r[0] == space, r[3] == dash, r[7] == dash, r[10] == space, r[19] == space, r[20...22].elementsEqual("gmt".utf8),
              let day = number(r[1..<3]), let month = month(r[4..<7]), let shortYear = number(r[8..<10]),
              let time = time(r[11..<19]) else { return nil }
        let currentYear = civil(fromDays: Int(now.timeIntervalSince1970) / 86_400).year
        var year = currentYear - currentYear % 100 + shortYear
        if year > currentYear + 50 { year -= 100 }
        return date(year: year, month: month, day: day, time: time)
    }

    private static func parseAsctime(_ b: [UInt8]) -> Date? {
        guard b.count == 24, lowerShortDays.contains(where: { $0.elementsEqual(b[0..<3]) }), b[3] == space, b[7] == space,
              b[10] == space, b[19] == space, let month = month(b[4..<7]),
              let day = number(b[8] == space ? b[9..<10] : b[8..<10]), let time = time(b[11..<19]),
              let year = number(b[20..<24]) else { return nil }
        return date(year: year, month: month, day: day, time: time)
    }

    // MARK: - Pieces

    private static let space = UInt8(ascii: " ")
    private static let comma = UInt8(ascii: ",")
    private static let dash = UInt8(ascii: "-")
    private static let colon = UInt8(ascii: ":")
    /// Weekday abbreviations, starting with Thursday: 1970-01-01 was a Thursday.
    private static let shortDays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let longDays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    /// The names above as lowercase bytes, the form the parsers compare with.
    private static let lowerShortDays = shortDays.map { Array($0.lowercased().utf8) }
    private static let lowerLongDays = longDays.map { Array($0.lowercased().utf8) }
    private static let lowerMonthNames = monthNames.map { Array($0.lowercased().utf8) }

    private static func month(_ bytes: ArraySlice<UInt8>) -> Int? {
        lowerMonthNames.firstIndex { $0.elementsEqual(bytes) }.map { $0 + 1 }
    }

    /// `HH:MM:SS` as seconds of the day.
    private static func time(_ b: ArraySlice<UInt8>) -> Int? {
        let t = Array(b)
        guard t.count == 8, t[2] == colon, t[5] == colon, let hour = number(t[0..<2]), let minute = number(t[3..<5]),
              let second = number(t[6..<8]), hour < 24, minute < 60, second < 61 else { return nil }
        return hour * 3_600 + minute * 60 + second
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for digit in digits {
            guard digit >= 48 && digit <= 57 else { return nil }
            value = value * 10 + Int(digit - 48)
        }
        return value
    }

    private static func date(year: Int, month: Int, day: Int, time: Int) -> Date? {
        guard (1...31).contains(day) else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(daysFromCivil(year: year, month: month, day: day) * 86_400 + time))
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The year, month and day of a count of days since 1970-01-01.
    private static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
