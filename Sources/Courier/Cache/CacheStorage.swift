/// Where an ``HTTPCache`` keeps responses. Courier ships ``MemoryCacheStorage`` (an LRU by
/// bytes and count), `CourierSQLite`'s disk storage, and ``TieredCacheStorage`` (memory in
/// front of disk).
///
/// A key can hold several variants of a response (one per combination of the request
/// header values its `Vary` names).
public protocol CacheStorage: Sendable {
    /// The stored variants for a key, most recently stored first.
    /// - Parameter key: The key.
    func variants(for key: CacheKey) async throws -> [CachedResponse]

    /// Stores a response, replacing the variant of the same key with the same `Vary` values.
    /// - Parameters:
    ///   - response: The response.
    ///   - key: Its key.
    func store(_ response: CachedResponse, for key: CacheKey) async throws

    /// Removes every variant stored for a key.
    /// - Parameter key: The key.
    func remove(_ key: CacheKey) async throws

    /// Removes every response of one partition (a user's), or of all partitions when `nil`.
    /// - Parameter partition: The partition, or `nil` for everything.
    func removeAll(partition: String?) async throws

    /// Removes every response, in every partition, whose URL lies under a prefix (see
    /// ``CachePrefix``): the collection at `prefix` with all its query variants and
    /// everything below it.
    /// - Parameter prefix: An absolute URL such as `https://api.example.com/api/radars`.
    func removeAll(under prefix: String) async throws

    /// The secret that keys the cache's credential digests (``CredentialDigest``), for a
    /// storage that outlives the process: it must stay the same for as long as the stored
    /// entries do, and be kept as privately as they are. `nil` (the default) lets the
    /// ``HTTPCache`` pick a random one, right for storage that lives in memory.
    var digestSecret: [UInt8]? { get }
}

extension CacheStorage {
    /// No secret of its own: the cache picks a random one.
    public var digestSecret: [UInt8]? { nil }
}
