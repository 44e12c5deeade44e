/// A decision the chain made for one call, as it made it.
///
/// The stages report what they decide to the call's ``CallRecord``; whoever observes the
/// record (``CallRecord/observe(_:)``) hears it at once. Tracing turns each event into a span
/// event on the call's span, and `courier get -v` prints them.
///
/// Events carry no credentials, no bodies and no query secrets: URLs are redacted
/// (``Redaction``) and removed fields are named, never shown.
public enum ChainEvent: Sendable, Hashable {
    /// The cache answered the call without the network, or with a 304 from it.
    /// - Parameters:
    ///   - status: How the stored response was used.
    ///   - reason: Why it could be used, in a few words (for example "fresh", or
    ///     "stale-while-revalidate: refreshing in the background").
    case cacheServed(CacheStatus, reason: String)
    /// The cache had nothing it could use: the call goes to the network, conditionally when
    /// a stale response is stored (the server may answer 304).
    case cacheMiss(revalidating: Bool)
    /// An identical GET was already in flight: this call waits for its response instead of
    /// sending its own.
    case joinedCallInFlight
    /// The offline queue kept the write, to deliver it later; the call ends with
    /// ``CourierError/Code/queued``.
    case queued(id: String)
    /// An attempt failed in a way worth another: the next attempt starts after `delay`.
    /// - Parameters:
    ///   - attempt: The number of the attempt about to start (2 for the first retry).
    ///   - delay: The wait before it.
    ///   - after: What the failed attempt got: a status code (`"503"`) or an error code.
    ///   - retryAfter: The server's `Retry-After` value when it set the wait; `nil` for backoff.
    case retrying(attempt: Int, delay: Duration, after: String, retryAfter: String?)
    /// The server rejected the credential; a renewed one (from a refresh, shared with other
    /// calls rejected at the same time) signs the request once more.
    case credentialRenewed
    /// A redirect is followed.
    /// - Parameters:
    ///   - status: The redirect's status code.
    ///   - location: The next URL, redacted.
    ///   - removedFields: The fields left behind because the next hop is another origin
    ///     (`Authorization`, `Cookie`, …), by name.
    case redirected(status: Int, location: String, removedFields: [String])

    /// A short name for the event, as tracing uses it (`cache.served`, `retry`, …).
    public var name: String {
        switch self {
        case .cacheServed: "cache.served"
        case .cacheMiss: "cache.miss"
        case .joinedCallInFlight: "dedup.joined"
        case .queued: "queue.enqueued"
        case .retrying: "retry"
        case .credentialRenewed: "auth.credential_renewed"
        case .redirected: "redirect"
        }
    }

    /// The event in one line of plain English, for a terminal or a log.
    public var summary: String {
        switch self {
        case .cacheServed(let status, let reason):
            "answered from the cache (\(status)): \(reason)"
        case .cacheMiss(let revalidating):
            revalidating ? "cache: stored response is stale; asking the server whether it changed" : "cache: nothing usable stored; going to the network"
        case .joinedCallInFlight:
            "an identical request is in flight: sharing its response"
        case .queued(let id):
            "the offline queue kept the write as \(id)"
        case .retrying(let attempt, let delay, let after, let retryAfter):
            "retrying after \(after): attempt \(attempt) in \(Int(delay.timeInterval * 1_000)) ms (\(retryAfter.map { "the server's Retry-After: \($0)" } ?? "backoff"))"
        case .credentialRenewed:
            "the server rejected the credential: sending again with a renewed one"
        case .redirected(let status, let location, let removed):
            "following \(status) to \(location)" + (removed.isEmpty ? "" : " (another origin: removed \(removed.joined(separator: ", ")))")
        }
    }
}
