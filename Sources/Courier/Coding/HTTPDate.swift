public import Foundation

/// HTTP dates (RFC 9110, section 5.6.7): IMF-fixdate, and the obsolete RFC 850 and asctime forms.
public enum HTTPDate {
    /// Parses an HTTP date in any of the three forms.
    /// - Parameter text: The header value.
    /// - Returns: The date, or `nil` if the text is in none of the forms.
    public static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        for format in formats {
            if let date = formatter(format).date(from: trimmed) { return date }
        }
        return nil
    }

    /// Formats a date as an IMF-fixdate, such as `Sun, 06 Nov 1994 08:49:37 GMT`.
    /// - Parameter date: The date.
    /// - Returns: The text.
    public static func format(_ date: Date) -> String {
        formatter(formats[0]).string(from: date)
    }

    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss 'GMT'",
        "EEEE, dd-MMM-yy HH:mm:ss 'GMT'",
        "EEE MMM d HH:mm:ss yyyy",
    ]

    private static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = format
        return formatter
    }
}
