public import Foundation

/// How fresh a stored response is: its freshness lifetime and its current age (RFC 9111,
/// sections 4.2.1 to 4.2.3), computed from its headers and the dates it was requested and
/// received. A pure value: the same response and date always give the same answer.
public struct Freshness: Sendable, Hashable {
    /// How long the response stays fresh, in seconds, from its explicit freshness
    /// (`max-age`, `Expires`), the heuristic, or the TTL override.
    public var lifetime: TimeInterval
    /// How old the response is now, in seconds.
    public var age: TimeInterval
    /// Whether the lifetime came from the heuristic (10 % of the time since `Last-Modified`).
    public var isHeuristic: Bool

    /// Whether the response is fresh: its age is below its lifetime.
    public var isFresh: Bool { age < lifetime }
    /// How long past its lifetime the response is (zero while fresh).
    public var staleness: TimeInterval { max(0, age - lifetime) }

    /// Statuses that may be given a heuristic freshness lifetime (RFC 9110, section 15.1).
    public static let heuristicallyCacheableStatuses: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    /// Computes the freshness of a stored response.
    /// - Parameters:
    ///   - response: The stored response.
    ///   - now: The current date.
    ///   - heuristicFraction: The share of the time since `Last-Modified` used as a heuristic lifetime.
    ///   - ttlOverride: A lifetime for responses without explicit freshness, instead of the heuristic.
    public init(of response: CachedResponse, now: Date, heuristicFraction: Double = 0.1, ttlOverride: Duration? = nil) {
        self.init(of: response, control: CacheControl(response.values("Cache-Control")), now: now, heuristicFraction: heuristicFraction, ttlOverride: ttlOverride)
    }

    /// Computes the freshness of a stored response whose `Cache-Control` the caller has parsed.
    init(of response: CachedResponse, control: CacheControl, now: Date, heuristicFraction: Double, ttlOverride: Duration?) {
        let date = Self.singleDate(response.values("Date")) ?? response.responseDate
        var heuristic = false
        var lifetime: TimeInterval

        if let maxAge = control.seconds("max-age") {
            if case .seconds(let value) = maxAge { lifetime = TimeInterval(value) } else { lifetime = 0 }
        } else if !response.values("Expires").isEmpty {
            let expires = response.values("Expires")
            if expires.count == 1, let expiry = HTTPDate.parse(expires[0]) {
                lifetime = max(0, expiry.timeIntervalSince(date))
            } else {
                lifetime = 0
            }
        } else if let ttlOverride {
            lifetime = ttlOverride.timeInterval
        } else if Self.heuristicallyCacheableStatuses.contains(response.status) || control.has("public"),
                  let lastModified = Self.singleDate(response.values("Last-Modified")), lastModified < date {
            lifetime = date.timeIntervalSince(lastModified) * heuristicFraction
            heuristic = true
        } else {
            lifetime = 0
        }

        self.lifetime = lifetime
        self.age = Self.age(of: response, date: date, now: now)
        self.isHeuristic = heuristic
    }

    /// The current age of a stored response (RFC 9111, section 4.2.3), without its lifetime.
    static func age(of response: CachedResponse, now: Date) -> TimeInterval {
        age(of: response, date: singleDate(response.values("Date")) ?? response.responseDate, now: now)
    }

    private static func age(of response: CachedResponse, date: Date, now: Date) -> TimeInterval {
        let apparentAge = max(0, response.responseDate.timeIntervalSince(date))
        let ageValue = ageHeader(response.values("Age"))
        let responseDelay = max(0, response.responseDate.timeIntervalSince(response.requestDate))
        let correctedInitialAge = max(apparentAge, ageValue + responseDelay)
        let residentTime = max(0, now.timeIntervalSince(response.responseDate))
        return correctedInitialAge + residentTime
    }

    /// The age in whole seconds, as sent in an `Age` header.
    public var ageHeaderValue: String {
        Self.ageHeaderValue(age)
    }

    /// An age in whole seconds as sent in an `Age` header, at most 2147483648 as RFC 9111
    /// (section 1.2.2) asks for anything larger, so that no stored date can make it trap.
    static func ageHeaderValue(_ age: TimeInterval) -> String {
        guard age.isFinite, age > 0 else { return "0" }
        return String(Int(min(age, 2_147_483_648).rounded(.down)))
    }

    private static func singleDate(_ values: [String]) -> Date? {
        guard values.count == 1 else { return nil }
        return HTTPDate.parse(values[0])
    }

    private static func ageHeader(_ values: [String]) -> TimeInterval {
        guard let first = values.first.map({ ASCII.trimmed($0) }), !first.isEmpty,
              first.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return 0 }
        return TimeInterval(Int(first.prefix(10)) ?? Int(Int32.max))
    }
}
