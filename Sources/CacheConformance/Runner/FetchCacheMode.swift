public import Courier

/// A fetch `cache` mode, as a step's `cache` field names it, and the Courier cache policy
/// closest to it.
public enum FetchCacheMode: String, Sendable, CaseIterable {
    /// `default`: the HTTP rules.
    case `default`
    /// `no-store`: neither read nor write the cache.
    case noStore = "no-store"
    /// `reload`: go to the network unconditionally and store the response.
    case reload
    /// `no-cache`: always revalidate with the origin.
    case noCache = "no-cache"
    /// `force-cache`: use any stored response, however stale.
    case forceCache = "force-cache"
    /// `only-if-cached`: never go to the network.
    case onlyIfCached = "only-if-cached"

    /// The closest `CachePolicy`; `nil` keeps the client's default.
    ///
    /// `reload` has no exact match: `CachePolicy.noCache` also asks the network
    /// and stores the answer, but sends a conditional request when it holds a validator,
    /// where `reload` sends an unconditional one (`CachePolicy.networkFirst` would
    /// be unconditional but falls back to the cache on failure, which `reload` never does).
    public var cachePolicy: CachePolicy? {
        switch self {
        case .default: return nil
        case .noStore: return .bypass
        case .reload, .noCache: return .noCache
        case .forceCache: return .cacheFirst
        case .onlyIfCached: return .cacheOnly
        }
    }
}
