public import Foundation
public import HTTPTypes

/// What a server says of its limits on an answer, read from whichever of the common forms it
/// uses, for ``QuotaLedger/correct(with:at:)``:
///
/// - Strava: `X-RateLimit-Limit: 100,1000` and `X-RateLimit-Usage: 12,345`, the 15-minute
///   window's and the day's; Strava's windows are fixed (quarter hours, days from midnight
///   UTC), so a full one holds calls until its end;
/// - GitHub's: `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (seconds
///   since 1970); none remaining holds calls until the reset;
/// - the IETF draft's: `RateLimit-Policy: 100;w=900` (or `"default";q=100;w=900`) and
///   `RateLimit: limit=100, remaining=0, reset=30` (or `"default";r=0;t=30`);
/// - a 429's or a 503's `Retry-After`.
public struct QuotaAnnouncement: Sendable, Hashable {
    /// One window as announced; what the server left out is `nil`.
    public struct Window: Sendable, Hashable {
        /// The limit.
        public var limit: Int?
        /// The window's length.
        public var length: Duration?
        /// The calls the server counts in it so far.
        public var used: Int?

        /// Makes an announced window.
        public init(limit: Int? = nil, length: Duration? = nil, used: Int? = nil) {
            self.limit = limit
            self.length = length
            self.used = used
        }
    }

    /// The windows announced.
    public var windows: [Window]
    /// No call should go before this moment, when the server says so.
    public var resumeAt: Date?

    /// Makes an announcement.
    public init(windows: [Window] = [], resumeAt: Date? = nil) {
        self.windows = windows
        self.resumeAt = resumeAt
    }

    /// Strava's windows: 15 minutes, then a day.
    static let stravaLengths: [Duration] = [.seconds(15 * 60), .seconds(86_400)]

    /// What an answer's fields announce, or `nil` when they announce nothing.
    /// - Parameters:
    ///   - status: The answer's status.
    ///   - fields: Its header fields.
    ///   - now: When it arrived.
    public static func read(status: Int, fields: HTTPFields, now: Date) -> QuotaAnnouncement? {
        var announcement = QuotaAnnouncement()
        let limits = numbers(fields[HTTPField.Name("X-RateLimit-Limit")!])
        if let usage = numbers(fields[HTTPField.Name("X-RateLimit-Usage")!]) {
            // Strava: one number per window, the 15-minute one first.
            for (index, used) in usage.enumerated() where index < stravaLengths.count {
                let limit = limits.flatMap { index < $0.count ? $0[index] : nil }
                announcement.windows.append(Window(limit: limit, length: stravaLengths[index], used: used))
                if let limit, used >= limit {
                    let end = fixedWindowEnd(length: stravaLengths[index], now: now)
                    announcement.resumeAt = max(announcement.resumeAt ?? end, end)
                }
            }
        } else if let remaining = numbers(fields[HTTPField.Name("X-RateLimit-Remaining")!])?.first {
            // GitHub: one window whose length is not said; its reset is.
            let limit = limits?.first
            announcement.windows.append(Window(limit: limit, used: limit.map { max(0, $0 - remaining) }))
            if remaining <= 0, let reset = numbers(fields[HTTPField.Name("X-RateLimit-Reset")!])?.first {
                announcement.resumeAt = Date(timeIntervalSince1970: TimeInterval(reset))
            }
        }
        if let policy = fields[HTTPField.Name("RateLimit-Policy")!] {
            let parameters = Self.parameters(policy)
            let limit = parameters["q"] ?? parameters[""]
            let length = parameters["w"].map { Duration.seconds($0) }
            if limit != nil || length != nil {
                let current = fields[HTTPField.Name("RateLimit")!].map(Self.parameters) ?? [:]
                let remaining = current["r"] ?? current["remaining"]
                let used = limit.flatMap { limit in remaining.map { max(0, limit - $0) } }
                announcement.windows.append(Window(limit: limit, length: length, used: used))
            }
        }
        if let current = fields[HTTPField.Name("RateLimit")!].map(Self.parameters),
           (current["r"] ?? current["remaining"]) == 0, let reset = current["t"] ?? current["reset"] {
            let resume = now.addingTimeInterval(TimeInterval(reset))
            announcement.resumeAt = max(announcement.resumeAt ?? resume, resume)
        }
        if status == 429 || status == 503, let value = fields[.retryAfter], let wait = RetryAfter.parse(value, now: now) {
            let resume = now.addingTimeInterval(wait.timeInterval)
            announcement.resumeAt = max(announcement.resumeAt ?? resume, resume)
        }
        return announcement.windows.isEmpty && announcement.resumeAt == nil ? nil : announcement
    }

    /// The end of the fixed window of `length` that `now` falls in, counted from midnight UTC
    /// (Strava's quarter hours and days).
    static func fixedWindowEnd(length: Duration, now: Date) -> Date {
        let seconds = length.timeInterval
        let start = (now.timeIntervalSince1970 / seconds).rounded(.down) * seconds
        return Date(timeIntervalSince1970: start + seconds)
    }

    /// `100,1000` as `[100, 1000]`; `nil` when any part is not a whole number.
    private static func numbers(_ value: String?) -> [Int]? {
        guard let value else { return nil }
        let parts = value.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !parts.isEmpty, parts.allSatisfy({ $0 != nil }) else { return nil }
        return parts.compactMap { $0 }
    }

    /// The numeric parameters of an IETF field, in either draft's form: `limit=100, remaining=0,
    /// reset=30`, or `"default";q=100;w=900` (its first item). A bare leading number (`100;w=900`)
    /// is keyed by the empty name.
    private static func parameters(_ value: String) -> [String: Int] {
        let firstItem = value.split(separator: ",", omittingEmptySubsequences: true).count > 1 && value.contains("=") && !value.contains(";")
            ? Substring(value) : value.split(separator: ",").first ?? Substring(value)
        var result: [String: Int] = [:]
        for part in firstItem.split(whereSeparator: { $0 == ";" || $0 == "," }) {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, let number = Int(pair[1]) {
                result[pair[0].lowercased()] = number
            } else if pair.count == 1, let number = Int(pair[0]) {
                result[""] = number
            }
        }
        return result
    }
}
