public import Foundation

/// Reads a `Retry-After` header: delta-seconds or an HTTP-date (RFC 9110, section 10.2.3).
public enum RetryAfter {
    /// How long the header asks the client to wait.
    /// - Parameters:
    ///   - value: The header's value.
    ///   - now: The current date, to measure an HTTP-date against.
    /// - Returns: The wait (zero for a date in the past), or `nil` if the value is not valid.
    public static func parse(_ value: String, now: Date) -> Duration? {
        let trimmed = String(ASCII.trimmed(value))
        if let seconds = Int64(trimmed) {
            return seconds >= 0 ? .seconds(seconds) : nil
        }
        guard let date = HTTPDate.parse(trimmed) else { return nil }
        let interval = max(0, date.timeIntervalSince(now))
        return .milliseconds(Int64((interval * 1000).rounded()))
    }
}
