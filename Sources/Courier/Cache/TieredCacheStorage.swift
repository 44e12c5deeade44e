/// A fast tier (memory) in front of a durable one (disk): reads try memory first and promote
/// what they find on disk; writes go to both.
public struct TieredCacheStorage: CacheStorage {
    /// The fast tier.
    public let memory: any CacheStorage
    /// The durable tier.
    public let disk: any CacheStorage

    /// The durable tier's secret, which outlives the memory tier.
    public var digestSecret: [UInt8]? { disk.digestSecret }

    /// Makes a two-tier storage.
    /// - Parameters:
    ///   - memory: The fast tier, such as ``MemoryCacheStorage``.
    ///   - disk: The durable tier, such as `CourierSQLite`'s `SQLiteCacheStorage`.
    public init(memory: any CacheStorage, disk: any CacheStorage) {
        self.memory = memory
        self.disk = disk
    }

    /// Memory's variants, or disk's (copied into memory).
    public func variants(for key: CacheKey) async throws -> [CachedResponse] {
        let fast = try await memory.variants(for: key)
        if !fast.isEmpty { return fast }
        let durable = try await disk.variants(for: key)
        for variant in durable.reversed() { try await memory.store(variant, for: key) }
        return durable
    }

    /// Stores in both tiers.
    public func store(_ response: CachedResponse, for key: CacheKey) async throws {
        try await disk.store(response, for: key)
        try await memory.store(response, for: key)
    }

    /// Removes from both tiers.
    public func remove(_ key: CacheKey) async throws {
        try await memory.remove(key)
        try await disk.remove(key)
    }

    /// Removes a partition, or everything, from both tiers.
    public func removeAll(partition: String?) async throws {
        try await memory.removeAll(partition: partition)
        try await disk.removeAll(partition: partition)
    }

    /// Removes every response under a prefix from both tiers.
    public func removeAll(under prefix: String) async throws {
        try await memory.removeAll(under: prefix)
        try await disk.removeAll(under: prefix)
    }
}
