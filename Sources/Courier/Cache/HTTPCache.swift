public import Foundation
import Synchronization

/// A private HTTP cache (RFC 9111) on a ``CacheStorage``, used by the client's cache stage.
///
/// ```swift
/// let cache = HTTPCache(storage: TieredCacheStorage(memory: MemoryCacheStorage(), disk: try SQLiteCacheStorage(url: file)))
/// var configuration = ClientConfiguration(baseURL: url)
/// configuration.cache = cache
/// ```
///
/// Responses are stored per user (the credential's account id), so one user's cached data is
/// never served to another; ``clear(partition:)`` removes a user's entries at logout. Responses
/// marked `no-store`, truncated bodies and failed bodies are never stored.
public final class HTTPCache: Sendable {
    /// A stored response changed because a background refresh (stale-while-revalidate) finished.
    public struct Update: Sendable {
        /// The key that changed.
        public var key: CacheKey
        /// The new response.
        public var response: CachedResponse
    }

    /// Where responses are kept.
    public let storage: any CacheStorage
    /// The time source for ages and freshness.
    public let clock: any CourierClock
    /// The share of the time since `Last-Modified` used as a heuristic freshness lifetime.
    public let heuristicFraction: Double
    /// The largest body stored; larger responses pass through unstored.
    public let maxEntryBytes: Int
    /// Keys the digests that stand for credentials in partitions and `Vary` values: the
    /// storage's ``CacheStorage/digestSecret``, else a random secret of this cache's own.
    public let credentialDigest: CredentialDigest
    /// The background refreshes under way (stale-while-revalidate).
    let refreshes = BackgroundRefreshes()
    private let observers = Mutex<[Int: AsyncStream<Update>.Continuation]>([:])
    private let nextObserver = Atomic<Int>(0)

    /// Makes a cache.
    /// - Parameters:
    ///   - storage: Where responses are kept.
    ///   - clock: The time source.
    ///   - heuristicFraction: The heuristic freshness fraction (10 % by default, as RFC 9111 suggests).
    ///   - maxEntryBytes: The largest body stored (8 MiB by default).
    public init(storage: any CacheStorage, clock: any CourierClock = SystemClock(), heuristicFraction: Double = 0.1, maxEntryBytes: Int = 8 << 20) {
        self.storage = storage
        self.clock = clock
        self.heuristicFraction = heuristicFraction
        self.maxEntryBytes = maxEntryBytes
        self.credentialDigest = storage.digestSecret.map(CredentialDigest.init(key:)) ?? .random()
    }

    /// Removes one user's responses, or every response.
    /// - Parameter partition: The user's partition (the credential's account id), or `nil` for all.
    public func clear(partition: String? = nil) async throws {
        try await storage.removeAll(partition: partition)
    }

    /// Removes every stored response, in every partition, whose URL lies under a prefix: the
    /// collection at that URL with all its query variants and everything below it (see
    /// ``CachePrefix``).
    ///
    /// An app calls it after a change the cache cannot see (a push message, a write made by
    /// another device). A write made through the client declares what it changes with
    /// ``RequestOptions/invalidates`` instead, and the client calls this when the write
    /// succeeds. RFC 9111's own invalidation (the target URI, `Location` and
    /// `Content-Location` of a successful unsafe request) happens either way.
    /// - Parameter prefix: An absolute URL such as `https://api.example.com/api/radars`.
    public func invalidate(_ prefix: URL) async throws {
        try await storage.removeAll(under: prefix.absoluteString)
    }

    /// Returns once no background refresh (stale-while-revalidate) of this cache is under way:
    /// for a harness that lets time pass on a clock of its own, in place of real time in
    /// which a refresh would have ended.
    package func backgroundRefreshesEnded() async {
        await refreshes.idle()
    }

    /// A stream of responses refreshed in the background, for views that show cached data
    /// first and want the fresh value when it comes.
    public func updates() -> AsyncStream<Update> {
        let id = nextObserver.add(1, ordering: .relaxed).newValue
        let (stream, continuation) = AsyncStream<Update>.makeStream(bufferingPolicy: .bufferingNewest(64))
        observers.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.observers.withLock { $0.removeValue(forKey: id) }
        }
        return stream
    }

    func publish(_ update: Update) {
        for continuation in observers.withLock({ Array($0.values) }) {
            continuation.yield(update)
        }
    }
}
