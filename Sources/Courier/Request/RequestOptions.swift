/// Per-request settings that the chain's stages read.
///
/// Each stage reads its own options here (cache and retry policies, the offline queue,
/// compression); unset values fall back to the client's configuration.
public struct RequestOptions: Sendable, Hashable {
    /// The longest one attempt may take, from sending to the last byte of the response.
    /// `nil` uses ``ClientConfiguration/timeout``.
    public var timeout: Duration?
    /// Whether the request must carry the user's credential. Sign-in and public endpoints set `false`.
    public var requiresAuth: Bool
    /// Whether the offline queue may store this write when the server cannot be reached.
    public var isQueueable: Bool
    /// A key that makes a write safe to repeat; sent as `Idempotency-Key`.
    public var idempotencyKey: String?
    /// The most response-body bytes accepted for a decoded call. `nil` uses
    /// ``ClientConfiguration/maxResponseBytes``.
    public var maxResponseBytes: Int?
    /// The retry policy for this request; `nil` uses ``ClientConfiguration/retryPolicy``.
    public var retryPolicy: RetryPolicy?
    /// Whether this GET may share one call with identical GETs in flight (yes by default).
    public var deduplicates: Bool
    /// How this request uses the cache; `nil` uses ``ClientConfiguration/cachePolicy``.
    public var cachePolicy: CachePolicy?
    /// How long the call may take in all, every attempt and wait included. `nil`: no limit
    /// beyond the per-attempt ``timeout``.
    public var deadline: Duration?
    /// How long to wait for connectivity when the ``ClientConfiguration/connectivity`` monitor
    /// says offline, before trying anyway; `nil` (the default) tries at once.
    public var connectivityWait: Duration?
    /// The offline queue this write goes to when it is queued (FIFO within a queue);
    /// ``OfflineQueue/defaultQueueName`` when `nil`.
    public var queueName: String?
    /// Paths of collections this write changes, relative to the base URL like a request's
    /// path (`/api/radars`). When the write succeeds, the ``HTTPCache`` removes every response
    /// stored at or below each path, whatever its query and whoever it belongs to (see
    /// ``HTTPCache/invalidate(_:)``), on top of what RFC 9111 invalidates; so does a replay
    /// of the write from the ``OfflineQueue``. Empty by default.
    public var invalidates: [String]
    /// Whether the request's body is personal data (health records, for one): it is never
    /// logged, whatever ``LoggingMiddleware/bodies`` allows. `false` by default.
    public var bodyIsPersonalData: Bool = false
    /// Whether the request body is sent compressed with the client's
    /// ``ClientConfiguration/requestBodyCompressor`` (gzip), with `Content-Encoding` set.
    /// A server that answers 415 gets the request again uncompressed, once, and is then sent
    /// uncompressed bodies by this client. `false` by default; without a compressor it has no effect.
    public var compressesRequestBody: Bool = false
    /// Whether a compressed response body (`Content-Encoding: gzip` or `deflate`) is decoded
    /// before anyone reads it; `true` by default. Courier sets it to `false` for a request
    /// whose caller sets its own `Accept-Encoding` (directly or through
    /// ``DefaultHeadersMiddleware``), other than `identity`: that caller gets the bytes as they
    /// came, `Content-Encoding` included (on URLSession, which always decodes what it can,
    /// only a coding it does not know arrives encoded).
    public var decodesContentEncoding: Bool = true
    /// The most decoded bytes per encoded byte of a compressed response (past the first MiB,
    /// which is always allowed): a body that inflates further fails with
    /// ``CourierError/Code/responseTooLarge`` before it is held in memory. `nil` uses
    /// ``ClientConfiguration/maxDecompressionRatio``.
    public var maxDecompressionRatio: Int?

    /// The account the request is made as, in a client that signs for many
    /// (``ClientConfiguration/accounts``): its credential signs it, its cache partition and
    /// per-account quotas hold it, and a queued write is delivered later as that account.
    /// `nil` (the default) uses the client's single ``ClientConfiguration/auth`` session.
    public var account: String?

    /// Whether the write goes to the ``OfflineQueue`` before any attempt, to be delivered by
    /// the queue at once (an outbox: with a `SharedQueueStorage`, by whichever process claims
    /// it). Set by ``APIClient/enqueue(_:)``; `false` by default.
    public var queuesFirst: Bool = false

    /// The decompression ratio limit when neither the request nor the client sets one.
    public static let defaultMaxDecompressionRatio = 100

    /// Makes options; every parameter has the default a typical API call wants.
    public init(
        timeout: Duration? = nil,
        requiresAuth: Bool = true,
        isQueueable: Bool = false,
        idempotencyKey: String? = nil,
        maxResponseBytes: Int? = nil,
        retryPolicy: RetryPolicy? = nil,
        cachePolicy: CachePolicy? = nil,
        deduplicates: Bool = true,
        deadline: Duration? = nil,
        connectivityWait: Duration? = nil,
        queueName: String? = nil,
        invalidates: [String] = []
    ) {
        self.timeout = timeout
        self.requiresAuth = requiresAuth
        self.isQueueable = isQueueable
        self.idempotencyKey = idempotencyKey
        self.maxResponseBytes = maxResponseBytes
        self.retryPolicy = retryPolicy
        self.cachePolicy = cachePolicy
        self.deduplicates = deduplicates
        self.deadline = deadline
        self.connectivityWait = connectivityWait
        self.queueName = queueName
        self.invalidates = invalidates
    }
}
