import Courier
import Foundation

/// The suite's rewriting of header values at run time: date offsets become HTTP dates, and
/// with `magic_locations`, relative `Location` / `Content-Location` values become absolute.
///
/// The origin applies it to the headers it sends; the runner applies it to `magic_ims`
/// request headers and to expected response header values.
public enum SuiteDates {
    /// Headers whose integer values are offsets in seconds from the origin's clock.
    public static let dateHeaderNames: Set<String> = ["date", "expires", "last-modified", "if-modified-since", "if-unmodified-since"]
    /// Headers that `magic_locations` makes absolute.
    public static let locationHeaderNames: Set<String> = ["location", "content-location"]

    /// An HTTP date `offset` seconds from `serverNow`.
    /// - Parameters:
    ///   - serverNow: The origin's clock, in milliseconds since 1970 (`Server-Now`).
    ///   - offset: Seconds to add.
    ///   - rfc850: Whether to use the obsolete RFC 850 form (`Sunday, 06-Nov-94 08:49:37 GMT`)
    ///     rather than an IMF-fixdate.
    /// - Returns: The date as header text.
    public static func render(serverNow: Int64, offset: Int, rfc850: Bool = false) -> String {
        let seconds = (Double(serverNow) / 1_000 + Double(offset)).rounded(.down)
        let date = Date(timeIntervalSince1970: seconds)
        return rfc850 ? rfc850Formatter().string(from: date) : HTTPDate.format(date)
    }

    /// The value a suite header has on the wire.
    /// - Parameters:
    ///   - header: The header as the suite writes it.
    ///   - step: The step it belongs to (for `rfc850date` and `magic_locations`).
    ///   - serverNow: The `Server-Now` that date offsets count from, if known.
    ///   - baseURL: The `Server-Base-Url` that locations are resolved against, if known.
    /// - Returns: The rendered value.
    public static func wireValue(of header: SuiteHeader, in step: ConformanceStep, serverNow: Int64?, baseURL: String?) -> String {
        let name = header.lowercasedName
        if case .seconds(let offset) = header.value, dateHeaderNames.contains(name), let serverNow {
            return render(serverNow: serverNow, offset: offset, rfc850: step.rfc850Dates.contains(name))
        }
        let literal = header.value.literal
        if step.magicLocations, locationHeaderNames.contains(name), let baseURL {
            return literal.isEmpty ? baseURL : "\(baseURL)/\(literal)"
        }
        return literal
    }

    private static func rfc850Formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEEE, dd-MMM-yy HH:mm:ss 'GMT'"
        return formatter
    }
}
