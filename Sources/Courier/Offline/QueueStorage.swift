import Foundation
import Synchronization

/// Where the offline queue keeps its items. `CourierSQLite`'s `SQLiteQueueStorage` is the
/// durable one; ``MemoryQueueStorage`` is for tests and for apps that accept losing queued
/// writes when the process ends.
///
/// Every method's effect must be durable when it returns (for a durable storage): the queue
/// tells the caller "queued" only after ``append(_:)`` returned.
public protocol QueueStorage: Sendable {
    /// Stores a new item.
    func append(_ item: QueuedRequest) async throws
    /// Replaces a stored item (same id).
    func update(_ item: QueuedRequest) async throws
    /// Removes an item.
    func remove(id: String) async throws
    /// Removes several items at once (one transaction, for a durable storage).
    func remove(ids: [String]) async throws
    /// Every item, pending and dead-lettered, in the order they were appended.
    func items() async throws -> [QueuedRequest]
}

extension QueueStorage {
    /// Removes several items, one at a time.
    public func remove(ids: [String]) async throws {
        for id in ids { try await remove(id: id) }
    }
}

/// Keeps the offline queue's items in memory only.
///
/// A `final class` whose items sit in a `Mutex`, which makes it `Sendable`.
public final class MemoryQueueStorage: QueueStorage {
    private let stored = Mutex<[QueuedRequest]>([])

    /// Makes an empty storage.
    public init() {}

    /// Stores a new item.
    public func append(_ item: QueuedRequest) async throws {
        stored.withLock { $0.append(item) }
    }

    /// Replaces a stored item.
    public func update(_ item: QueuedRequest) async throws {
        stored.withLock { items in
            if let index = items.firstIndex(where: { $0.id == item.id }) { items[index] = item }
        }
    }

    /// Removes an item.
    public func remove(id: String) async throws {
        stored.withLock { $0.removeAll { $0.id == id } }
    }

    /// Every item, in order.
    public func items() async throws -> [QueuedRequest] {
        stored.withLock { $0 }
    }
}
