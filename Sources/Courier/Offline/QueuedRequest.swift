public import Foundation

/// A write the offline queue holds: what to send again, and how its deliveries went.
///
/// It never holds a secret: `Authorization`, `Proxy-Authorization` and cookies are removed
/// before it is stored, and the request is signed again when it is replayed.
public struct QueuedRequest: Sendable, Hashable, Codable, Identifiable {
    /// One header field.
    public struct Field: Sendable, Hashable, Codable {
        /// The name as sent.
        public var name: String
        /// The value.
        public var value: String

        /// Makes a field.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Where an item stands.
    public enum State: String, Sendable, Hashable, Codable {
        /// Waiting to be delivered.
        case pending
        /// Given up on: a 4xx the server will not change its mind about, or too many
        /// attempts. Kept until the app retries or discards it.
        case deadLettered
    }

    /// The item's id, which ``CourierError/queuedRequestID`` and the queue's events carry.
    public var id: String
    /// The named queue it belongs to; items are delivered in order within a queue.
    public var queue: String
    /// The HTTP method.
    public var method: String
    /// The absolute URL.
    public var url: String
    /// The header fields, secrets removed.
    public var fields: [Field]
    /// The body.
    public var body: Data
    /// The key sent as `Idempotency-Key` on every delivery attempt.
    public var idempotencyKey: String
    /// When it was queued.
    public var createdAt: Date
    /// Delivery attempts made from the queue so far.
    public var attempts: Int
    /// The last failure, in words.
    public var lastError: String?
    /// Not before this moment is it tried again.
    public var nextAttemptAt: Date
    /// Pending or dead-lettered.
    public var state: State
    /// The status of the server's final answer, for dead-lettered items the server refused.
    public var deadLetterStatus: Int?
    /// The start of that answer's body.
    public var deadLetterBody: String?
    /// The account that made the write (the credential's ``Credential/accountID``), or `nil`
    /// for a write no signed-in account made. It is delivered only while that account is
    /// signed in (see ``OfflineQueue``).
    public var account: String?
    /// Absolute URLs of the collections the write changes (its
    /// ``RequestOptions/invalidates``, resolved when it was queued): the cache drops what it
    /// holds under them when the write is delivered.
    public var invalidates: [String]
    /// Whether the body is personal data (the request's ``RequestOptions/bodyIsPersonalData``):
    /// replays keep it out of logs as the live call did.
    public var bodyIsPersonalData: Bool

    /// Makes an item.
    public init(
        id: String = UUID().uuidString, queue: String, method: String, url: String, fields: [Field], body: Data,
        idempotencyKey: String, createdAt: Date, attempts: Int = 0, lastError: String? = nil,
        nextAttemptAt: Date? = nil, state: State = .pending, deadLetterStatus: Int? = nil, deadLetterBody: String? = nil,
        account: String? = nil, invalidates: [String] = [], bodyIsPersonalData: Bool = false
    ) {
        self.id = id
        self.queue = queue
        self.method = method
        self.url = url
        self.fields = fields
        self.body = body
        self.idempotencyKey = idempotencyKey
        self.createdAt = createdAt
        self.attempts = attempts
        self.lastError = lastError
        self.nextAttemptAt = nextAttemptAt ?? createdAt
        self.state = state
        self.deadLetterStatus = deadLetterStatus
        self.deadLetterBody = deadLetterBody
        self.account = account
        self.invalidates = invalidates
        self.bodyIsPersonalData = bodyIsPersonalData
    }

    /// Header names never written to the queue's storage.
    public static let secretFieldNames: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]
}

/// What the offline queue reports, as ``OfflineQueue/events()`` delivers it.
public enum QueueEvent: Sendable {
    /// A write was stored; it will be delivered later.
    case queued(id: String)
    /// A write was delivered; the server answered with this status and body.
    case delivered(id: String, status: Int, body: Data)
    /// A delivery attempt failed; the write stays queued and is tried again later.
    case failed(id: String, error: CourierError, attempts: Int)
    /// A write was moved to the dead-letter list.
    case deadLettered(id: String, reason: String)
    /// A write was deleted without being delivered: its account was not signed in and the
    /// queue's ``OfflineQueue/OtherAccountWrites`` policy is ``OfflineQueue/OtherAccountWrites/drop``.
    case dropped(id: String, reason: String)
}
