import Foundation

/// The quotas a client keeps to: one rule per provider, matched by the origin a request goes
/// to, and what a call does when its quota is spent.
///
/// ```swift
/// var configuration = ClientConfiguration(baseURL: stravaURL)
/// configuration.quota = QuotaPolicy(rules: [
///     QuotaRule(name: "strava", hosts: ["www.strava.com"], windows: [
///         QuotaWindow(limit: 100, length: .seconds(15 * 60)), QuotaWindow(limit: 1_000, length: .seconds(86_400)),
///     ]),
/// ])
/// ```
///
/// Every attempt of a matching request asks the quota first. A spent quota makes the call wait
/// for its turn (``Exhausted/wait``, the default) when the turn comes within the call's
/// deadline, or fail at once with `CourierError.Code.rateLimited` whose
/// `CourierError.retryAfter` says when to try again (``Exhausted/fail``). Writes the offline
/// queue delivers always wait. Every answer's announcement (``QuotaAnnouncement``) corrects the
/// quota: the server's own limits and counts, and a 429's `Retry-After`.
public struct QuotaPolicy: Sendable {
    /// What a call does when its quota is spent.
    public enum Exhausted: Sendable, Hashable {
        /// Waits for its turn, when it comes within the call's deadline; fails otherwise.
        case wait
        /// Fails at once with `CourierError.Code.rateLimited`.
        case fail
    }

    /// The providers' rules; a request no rule matches is not counted.
    public var rules: [QuotaRule]
    /// Where the ledgers live; this process's memory by default.
    public var store: any QuotaStore
    /// What a call does when its quota is spent.
    public var whenExhausted: Exhausted

    /// Makes a policy.
    public init(rules: [QuotaRule], store: any QuotaStore = MemoryQuotaStore(), whenExhausted: Exhausted = .wait) {
        self.rules = rules
        self.store = store
        self.whenExhausted = whenExhausted
    }
}

/// One provider's quota: its windows, which requests count against it, and whether it counts
/// each account apart.
public struct QuotaRule: Sendable, Hashable {
    /// The provider's name, which keys its ledger.
    public var name: String
    /// The hosts whose requests count (compared without regard to case).
    public var hosts: Set<String>
    /// The published limits.
    public var windows: [QuotaWindow]
    /// Whether each signed-in account has a quota of its own (the ledger key then ends with the
    /// account), or all share one.
    public var perAccount: Bool

    /// Makes a rule.
    public init(name: String, hosts: Set<String>, windows: [QuotaWindow], perAccount: Bool = false) {
        self.name = name
        self.hosts = Set(hosts.map { $0.lowercased() })
        self.windows = windows
        self.perAccount = perAccount
    }

    /// Whether a request to `authority` (`host` or `host:port`) counts against this quota.
    func matches(authority: String?) -> Bool {
        guard let authority else { return false }
        var host = authority.lowercased()
        if host.hasPrefix("["), let end = host.firstIndex(of: "]") {
            host = String(host[host.index(after: host.startIndex)..<end])
        } else if let colon = host.lastIndex(of: ":") {
            host = String(host[..<colon])
        }
        return hosts.contains(host)
    }
}
