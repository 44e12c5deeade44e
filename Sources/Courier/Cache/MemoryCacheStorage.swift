import Synchronization

/// Keeps responses in memory, evicting the least recently used past a byte or count budget.
///
/// A key holds at most ``maxVariantsPerKey`` variants (one per set of `Vary` values), newest
/// first; and when the key just stored is all that is left over budget, its oldest variants
/// go. A server that varies on a field each request sets differently cannot grow the store
/// past its budgets.
///
/// A `final class` whose state sits in a `Mutex`, which makes it `Sendable`.
public final class MemoryCacheStorage: CacheStorage {
    private struct State {
        var entries: [CacheKey: [CachedResponse]] = [:]
        var order: [CacheKey: UInt64] = [:]
        var tick: UInt64 = 0
        var bytes = 0
        var count = 0
    }

    private let state = Mutex(State())
    /// The most bytes kept (bodies and headers).
    public let maxBytes: Int
    /// The most responses kept.
    public let maxEntries: Int
    /// The most variants kept for one key; storing another drops the oldest.
    public let maxVariantsPerKey: Int

    /// Makes a memory store.
    /// - Parameters:
    ///   - maxBytes: The byte budget (16 MiB by default).
    ///   - maxEntries: The count budget (1 000 by default).
    ///   - maxVariantsPerKey: The most variants of one key (16 by default).
    public init(maxBytes: Int = 16 << 20, maxEntries: Int = 1_000, maxVariantsPerKey: Int = 16) {
        self.maxBytes = maxBytes
        self.maxEntries = maxEntries
        self.maxVariantsPerKey = max(1, maxVariantsPerKey)
    }

    /// The variants for a key; marks the key recently used.
    public func variants(for key: CacheKey) async throws -> [CachedResponse] {
        state.withLock { state in
            guard let variants = state.entries[key] else { return [] }
            state.tick += 1
            state.order[key] = state.tick
            return variants
        }
    }

    /// Stores a response, then evicts the least recently used keys past the budgets.
    /// A response larger than the whole byte budget is not stored.
    public func store(_ response: CachedResponse, for key: CacheKey) async throws {
        guard response.cost <= maxBytes else { return }
        var response = response
        response.memo = DecodedValueMemo()
        state.withLock { state in
            var variants = state.entries[key] ?? []
            if let index = variants.firstIndex(where: { $0.varyValues == response.varyValues }) {
                state.bytes -= variants[index].cost
                state.count -= 1
                variants.remove(at: index)
            }
            variants.insert(response, at: 0)
            while variants.count > maxVariantsPerKey, let oldest = variants.popLast() {
                state.bytes -= oldest.cost
                state.count -= 1
            }
            state.entries[key] = variants
            state.bytes += response.cost
            state.count += 1
            state.tick += 1
            state.order[key] = state.tick
            evict(&state, keeping: key)
        }
    }

    /// Removes a key.
    public func remove(_ key: CacheKey) async throws {
        state.withLock { drop(key, from: &$0) }
    }

    /// Removes a partition, or everything.
    public func removeAll(partition: String?) async throws {
        state.withLock { state in
            for key in state.entries.keys where partition == nil || key.partition == partition {
                drop(key, from: &state)
            }
        }
    }

    /// Removes every response whose URL lies under a prefix, in every partition.
    public func removeAll(under prefix: String) async throws {
        let prefix = CachePrefix.normalized(prefix)
        state.withLock { state in
            for key in state.entries.keys where CachePrefix.prefixes(of: key.url).contains(prefix) {
                drop(key, from: &state)
            }
        }
    }

    /// The bytes and responses held now.
    public var usage: (bytes: Int, entries: Int) {
        state.withLock { ($0.bytes, $0.count) }
    }

    private func evict(_ state: inout State, keeping protected: CacheKey) {
        while state.bytes > maxBytes || state.count > maxEntries {
            if let victim = state.order.filter({ $0.key != protected }).min(by: { $0.value < $1.value })?.key {
                drop(victim, from: &state)
            } else if var variants = state.entries[protected], variants.count > 1, let oldest = variants.popLast() {
                // Only the key just stored is left: its oldest variants go, the newest stays.
                state.entries[protected] = variants
                state.bytes -= oldest.cost
                state.count -= 1
            } else {
                return
            }
        }
    }

    private func drop(_ key: CacheKey, from state: inout State) {
        guard let variants = state.entries.removeValue(forKey: key) else { return }
        state.order.removeValue(forKey: key)
        state.bytes -= variants.reduce(0) { $0 + $1.cost }
        state.count -= variants.count
    }
}
