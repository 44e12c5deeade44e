public import Foundation

/// A rule by which the ``OfflineQueue`` sends several queued writes as one call, for a service
/// that takes many records at once (seed 001's batching): intervals.icu's `wellness-bulk` for
/// queued wellness days, CLARITY's health-data upload for queued metrics.
///
/// When the queue is about to deliver a write that the rule gives a batch key, it gathers the
/// writes behind it in the same named queue, of the same account, that are due and have the
/// same key, in order, until one does not fit (another key, the ``maxWrites`` or ``maxWeight``
/// limit), and sends them as one: the combining rule's request, with an idempotency key of its
/// own made from theirs. Each write is still reported on its own:
/// - the call succeeds: every write of the batch is ``QueueEvent/delivered(id:status:body:)``,
///   with the call's answer;
/// - it fails in a way worth trying again (a 5xx, the network): every write counts an
///   attempt and waits for its backoff, exactly as alone;
/// - the service refuses it (a 4xx other than 401, 409, 429): the writes are sent one by one,
///   so that the good ones are delivered and only a bad one is dead-lettered.
///
/// Order within a named queue is kept: a batch holds consecutive writes only.
///
/// ```swift
/// let queue = OfflineQueue(storage: storage, batchers: [IntervalsEndpoints.wellnessBatcher()])
/// ```
public struct WriteBatcher: Sendable {
    /// One call made of several writes.
    public struct Combined: Sendable {
        /// The method, such as `PUT`.
        public var method: String
        /// The absolute URL.
        public var url: String
        /// The body.
        public var body: Data
        /// The body's `Content-Type`.
        public var contentType: String

        /// Makes a combined call.
        public init(method: String, url: String, body: Data, contentType: String = "application/json") {
            self.method = method
            self.url = url
            self.body = body
            self.contentType = contentType
        }
    }

    /// A name for logs and the batch's idempotency key.
    public let name: String
    /// The most writes in one batch.
    public let maxWrites: Int
    /// The most weight in one batch (records, metrics: what the `weight` rule counts).
    public let maxWeight: Int
    let batchKey: @Sendable (QueuedRequest) -> String?
    let weight: @Sendable (QueuedRequest) -> Int
    let combine: @Sendable ([QueuedRequest]) throws -> Combined

    /// Makes a rule.
    /// - Parameters:
    ///   - name: A name for logs and the batch's idempotency key.
    ///   - maxWrites: The most writes in one batch.
    ///   - maxWeight: The most weight in one batch.
    ///   - batchKey: The key of a write this rule batches (writes batch only with writes of the
    ///     same key), or `nil` for one it does not.
    ///   - weight: What a write counts toward ``maxWeight`` (1 by default).
    ///   - combine: The one call that does what the writes do, in their order. Throwing sends
    ///     them one by one instead.
    public init(
        name: String,
        maxWrites: Int = 100,
        maxWeight: Int = .max,
        batchKey: @escaping @Sendable (QueuedRequest) -> String?,
        weight: @escaping @Sendable (QueuedRequest) -> Int = { _ in 1 },
        combine: @escaping @Sendable ([QueuedRequest]) throws -> Combined
    ) {
        self.name = name
        self.maxWrites = max(1, maxWrites)
        self.maxWeight = max(1, maxWeight)
        self.batchKey = batchKey
        self.weight = weight
        self.combine = combine
    }

    /// The writes that go with `first`: it, and those after it in `items` (the queue's pending
    /// writes, in order) that are due, in its named queue and of its account, with its key,
    /// until one is not. Pure: the queue's state is read from its arguments.
    /// - Parameters:
    ///   - first: The write about to be delivered.
    ///   - items: The queue's writes, in order.
    ///   - isDue: Whether a write may be delivered now.
    /// - Returns: The batch, `first` first; `[first]` when nothing goes with it.
    func batch(startingWith first: QueuedRequest, in items: [QueuedRequest], isDue: (QueuedRequest) -> Bool) -> [QueuedRequest] {
        guard let key = batchKey(first), let start = items.firstIndex(where: { $0.id == first.id }) else { return [first] }
        var batch = [first]
        var total = weight(first)
        for next in items[items.index(after: start)...] where next.state == .pending && next.queue == first.queue {
            guard batch.count < maxWrites, next.account == first.account, isDue(next), batchKey(next) == key else { break }
            let added = weight(next)
            guard total + added <= maxWeight else { break }
            batch.append(next)
            total += added
        }
        return batch
    }

    /// The idempotency key of a batch: the rule's name and a digest of its writes' keys, so the
    /// same batch sent again after a crash carries the same key.
    static func idempotencyKey(name: String, of items: [QueuedRequest]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in items.map(\.idempotencyKey).joined(separator: "\n").utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return "batch-\(name)-\(items.count)-" + String(repeating: "0", count: 16 - digits.count) + digits
    }
}
