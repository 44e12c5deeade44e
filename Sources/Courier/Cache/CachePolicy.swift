/// How a request uses the cache, chosen per request (``RequestOptions/cachePolicy``) or per
/// client (``ClientConfiguration/cachePolicy``).
public enum CachePolicy: Sendable, Hashable {
    /// The rules of HTTP caching (RFC 9111, for a private cache): serve what is fresh,
    /// revalidate what is stale, store what may be stored. The default.
    case http
    /// Always ask the server; a stored response with a validator is revalidated (a 304 still
    /// saves the body's transfer). The request carries `Cache-Control: max-age=0`, so caches
    /// on the way revalidate too. The response is stored if it may be.
    case noCache
    /// Never touch the network: serve any stored response, however old, or fail with a 504.
    case cacheOnly
    /// Serve any stored response, however old; go to the network only when nothing is stored.
    case cacheFirst
    /// Ask the network first; when it fails, serve any stored response, however old.
    case networkFirst
    /// Serve any stored response at once and refresh it in the background, publishing the
    /// fresh value to observers; with nothing stored, go to the network.
    case staleWhileRevalidate
    /// The HTTP rules, but responses without freshness information stay fresh for `ttl`
    /// (for APIs that send no cache headers).
    case ttl(Duration)
    /// Neither read nor write the cache.
    case bypass
}
