import Foundation
public import HTTPTypes
import Synchronization

/// Per-call information that travels with a request through every middleware and the transport.
///
/// The client makes one context per call. Stages that act per attempt (retry) pass a copy
/// with a new ``attempt``; everything else reads it.
public struct RequestContext: Sendable {
    /// What every attempt of the call shares: its fields, kept by a ``CallRecord`` (one object
    /// per call for both). Stages copy the context (into closures, once per attempt), and a
    /// copy of one reference costs one retain where the fields would cost one each. A setter
    /// puts the edited fields in a record of their own that stands in for the call's (see
    /// ``record``); the copies keep what they had.
    @usableFromInline var shared: CallRecord

    /// The call's fields that stay the same from attempt to attempt.
    @usableFromInline struct Fields: Sendable {
        @usableFromInline var requestID: String
        @usableFromInline var endpoint: String
        @usableFromInline var options: RequestOptions
        @usableFromInline var deadline: ContinuousClock.Instant?
        @usableFromInline let transportDeadline: ContinuousClock.Instant?
        var credentialScope: CredentialScope?
    }

    /// Puts fields that `change` has edited in a record that stands in for the call's.
    private mutating func edit(_ change: (inout Fields) -> Void) {
        var fields = shared.contextFields
        change(&fields)
        shared = CallRecord(contextFields: fields, standingInFor: record)
    }

    /// A short, unique id for the call, sent as `X-Request-ID` by ``DefaultHeadersMiddleware``
    /// and shown in logs.
    public var requestID: String {
        @inlinable get { shared.contextFields.requestID }
        set { edit { $0.requestID = newValue } }
    }

    /// The endpoint name of a request that has no ``Request/name``.
    public static let unnamedEndpoint = "unnamed"

    /// The endpoint's name for metrics (``Request/name``), or `unnamed`.
    public var endpoint: String {
        @inlinable get { shared.contextFields.endpoint }
        set { edit { $0.endpoint = newValue } }
    }

    /// The request's options: timeout, authentication, queueing, idempotency.
    public var options: RequestOptions {
        @inlinable get { shared.contextFields.options }
        set { edit { $0.options = newValue } }
    }

    /// Which attempt this is, starting at 1.
    public var attempt: Int

    /// When the call as a whole must be finished, if it has a deadline, on the client's
    /// ``ClientConfiguration/clock`` (which retry decisions use).
    public var deadline: ContinuousClock.Instant? {
        @inlinable get { shared.contextFields.deadline }
        set { edit { $0.deadline = newValue } }
    }

    /// The same deadline on the real continuous clock, which transports enforce. It differs
    /// from ``deadline`` only when the client runs on an injected clock (a test's manual
    /// clock), whose instants mean nothing to a socket.
    var transportDeadline: ContinuousClock.Instant? {
        shared.contextFields.transportDeadline
    }

    /// The user the call belongs to, once a stage has worked it out (see `UserPartition`).
    var userPartition: String?

    /// The origins the client sends credentials to; `nil` in a context made outside a client.
    var credentialScope: CredentialScope? {
        get { shared.contextFields.credentialScope }
        set { edit { $0.credentialScope = newValue } }
    }

    /// Whether a request may carry the client's credentials: it goes to the client's base
    /// URL's origin or one listed in ``ClientConfiguration/credentialOrigins``. Signing
    /// middleware (``BearerTokenMiddleware``, the ``AuthSession``'s stage) asks this, so an
    /// absolute URL to another server, a "next page" link elsewhere or a redirect hop to
    /// another origin goes out unsigned.
    ///
    /// A context made outside a client (a middleware's own test) has no scope and allows
    /// every origin.
    /// - Parameter request: The request about to be signed.
    public func mayCarryCredentials(_ request: HTTPRequest) -> Bool {
        shared.contextFields.credentialScope?.allows(request) ?? true
    }

    /// Counters shared by every attempt of the call, read back into ``ResponseMetrics``.
    public var record: CallRecord {
        @inlinable get { shared.callRecord }
    }

    /// Makes a context.
    /// - Parameters:
    ///   - requestID: The call's id; a random one by default.
    ///   - endpoint: The endpoint's name.
    ///   - options: The request's options.
    ///   - attempt: The attempt number.
    ///   - deadline: The call's overall deadline.
    public init(
        requestID: String = RequestContext.makeRequestID(),
        endpoint: String,
        options: RequestOptions = RequestOptions(),
        attempt: Int = 1,
        deadline: ContinuousClock.Instant? = nil
    ) {
        self.init(requestID: requestID, endpoint: endpoint, options: options, attempt: attempt, deadline: deadline, transportDeadline: deadline)
    }

    /// Makes a context whose transport deadline differs from its deadline (a client on an
    /// injected clock).
    init(
        requestID: String = RequestContext.makeRequestID(),
        endpoint: String,
        options: RequestOptions,
        attempt: Int = 1,
        deadline: ContinuousClock.Instant?,
        transportDeadline: ContinuousClock.Instant?,
        credentialScope: CredentialScope? = nil
    ) {
        self.shared = CallRecord(contextFields: Fields(
            requestID: requestID,
            endpoint: endpoint,
            options: options,
            deadline: deadline,
            transportDeadline: transportDeadline,
            credentialScope: credentialScope
        ), standingInFor: nil)
        self.attempt = attempt
    }

    /// How long this attempt may run from now: the per-attempt timeout, bounded by what is
    /// left of the call's deadline. `nil` when neither is set.
    ///
    /// The same bound as ``attemptDeadline``, as a span, for engines that take a timeout or
    /// keep time on a clock of their own; the clock is read only when the call has a deadline.
    public var attemptTimeLeft: Duration? {
        let timeout = options.timeout
        guard let deadline = transportDeadline else { return timeout }
        let left = ContinuousClock.now.duration(to: deadline)
        guard let timeout else { return left }
        return min(timeout, left)
    }

    /// The latest instant this attempt may run until: the per-attempt timeout from now,
    /// bounded by the call's deadline, both on the real continuous clock. `nil` when neither is set.
    public var attemptDeadline: ContinuousClock.Instant? {
        let fromTimeout = options.timeout.map { ContinuousClock.now.advanced(by: $0) }
        switch (fromTimeout, transportDeadline) {
        case let (timeout?, deadline?): return min(timeout, deadline)
        case let (timeout?, nil): return timeout
        case let (nil, deadline?): return deadline
        case (nil, nil): return nil
        }
    }

    /// Makes a random-looking 15-character request id, unique within the process.
    ///
    /// Fifteen ASCII characters is the most a Swift string holds inline, without a heap
    /// allocation, on 64-bit platforms; this runs once per call.
    ///
    /// The ids come from a SplitMix64 sequence seeded once from the system's random source,
    /// so making one costs no system call.
    public static func makeRequestID() -> String {
        requestIDs.next()
    }

    private static let requestIDs = RequestIDSequence()
}

/// The process's request ids: a SplitMix64 sequence whose seed and prefix come from the
/// system's random source once. `Sendable` through the `Atomic` that holds its state.
private final class RequestIDSequence: Sendable {
    private static let alphabet: [UInt8] = Array("0123456789abcdefghijklmnopqrstuv".utf8)
    private let state: Atomic<UInt64>
    /// 10 random bits that start every id of this process, so ids of two processes
    /// (whose sequences start at random points too) seldom share even their first characters.
    private let prefix: UInt64

    init() {
        var generator = SystemRandomNumberGenerator()
        state = Atomic(generator.next())
        prefix = generator.next() & 0x3FF
    }

    func next() -> String {
        // SplitMix64: the state advances by the golden-ratio increment, and the output is
        // a bijective mix of it, so ids repeat only after 2^64 calls.
        var z = state.wrappingAdd(0x9E37_79B9_7F4A_7C15, ordering: .relaxed).newValue
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        // Two prefix characters, then all 64 bits of the output in 13 base-32 characters
        // (the last holds 4 bits): distinct outputs make distinct ids.
        return String(unsafeUninitializedCapacity: 15) { buffer in
            buffer[0] = Self.alphabet[Int(prefix & 31)]
            buffer[1] = Self.alphabet[Int(prefix >> 5)]
            for index in 2..<15 {
                buffer[index] = Self.alphabet[Int(z & 31)]
                z >>= 5
            }
            return 15
        }
    }
}

/// Counters for one call, shared by all its attempts.
///
/// The record also keeps the fields of the call's ``RequestContext``, so that a call
/// allocates one object for both.
///
/// A `final class` whose state sits in `Atomic`s and `Mutex`es, beside `let`s of `Sendable`
/// types, which make it `Sendable`.
public final class CallRecord: Sendable {
    private let transportCalls = Atomic<Int>(0)
    private let retryStop = Mutex<RetryStopReason?>(nil)
    private let cache = Mutex<CacheStatus>(.network)
    private let refresh = Mutex<Task<RefreshedResponse, any Error>?>(nil)
    private let memo = Mutex<DecodedValueMemo?>(nil)
    private let signer = Mutex<Signer>(Signer())
    /// The encoded size of the last compressed response body read, -1 while none was.
    private let encodedBody = Atomic<Int>(-1)
    /// The HTTP version of the last attempt's response (``ProtocolVersion/storageValue``), 0 while none came.
    private let protocolVersionValue = Atomic<UInt8>(0)
    /// Who hears the call's ``ChainEvent``s; empty unless tracing or `-v` listens.
    private let observers = Mutex<[@Sendable (ChainEvent) -> Void]>([])

    /// Who signed the call's last attempt, as it went out.
    private struct Signer {
        var credential: Credential?
        var sent: SentCredentials?
    }

    /// The credential fields a request carried when it reached the transport.
    struct SentCredentials: Sendable, Equatable {
        var authorization: String?
        var cookie: String?
    }

    /// The fields of the context this record was made with (see `RequestContext.shared`).
    @usableFromInline let contextFields: RequestContext.Fields
    /// The call's record, when this one only holds a context's edited fields: it counts
    /// nothing itself, and ``callRecord`` is the call's.
    private let original: CallRecord?

    /// The record that counts for the call: this one, or the one it stands in for.
    @usableFromInline var callRecord: CallRecord { original ?? self }

    /// Makes an empty record.
    public init() {
        contextFields = RequestContext.Fields(
            requestID: "", endpoint: RequestContext.unnamedEndpoint, options: RequestOptions(),
            deadline: nil, transportDeadline: nil, credentialScope: nil
        )
        original = nil
    }

    /// Makes the record of a context: the call's own, or, with `original`, one that holds
    /// edited fields and stands in for the call's.
    init(contextFields: RequestContext.Fields, standingInFor original: CallRecord?) {
        self.contextFields = contextFields
        self.original = original
    }

    /// Counts one request handed to the transport.
    public func countTransportCall() {
        transportCalls.add(1, ordering: .relaxed)
        // A new attempt: what an earlier one's compressed body took on the wire, and the
        // version its answer came over, are not its.
        encodedBody.store(-1, ordering: .relaxed)
        protocolVersionValue.store(0, ordering: .relaxed)
    }

    /// Records the credential fields of a request handed to the transport.
    func noteSent(_ request: HTTPRequest) {
        let fields = request.headerFields
        let authorization = fields.contains(.authorization) ? fields[.authorization] : nil
        let cookie = fields.contains(.cookie) ? fields[.cookie] : nil
        let sent = authorization == nil && cookie == nil ? nil : SentCredentials(authorization: authorization, cookie: cookie)
        signer.withLock { $0.sent = sent }
    }

    /// Records the session credential the auth stage signed the attempt with.
    func noteSigningCredential(_ credential: Credential?) {
        signer.withLock { $0.credential = credential }
    }

    /// The session credential that signed the last attempt, if the auth stage signed it.
    var signingCredential: Credential? {
        signer.withLock { $0.credential }
    }

    /// The credential fields the last attempt carried to the transport; `nil` when it carried none.
    var sentCredentials: SentCredentials? {
        signer.withLock { $0.sent }
    }

    /// How many times the call reached the transport.
    public var transportCallCount: Int {
        transportCalls.load(ordering: .relaxed)
    }

    /// Records why the retry stage stopped trying.
    public func noteRetryStop(_ reason: RetryStopReason) {
        retryStop.withLock { $0 = reason }
    }

    /// Records that the cache answered the call.
    public func noteCacheStatus(_ status: CacheStatus) {
        cache.withLock { $0 = status }
    }

    /// Where the response came from: the network unless the cache stage said otherwise.
    public var cacheStatus: CacheStatus {
        cache.withLock { $0 }
    }

    /// Records the refresh the cache started after serving a stale response
    /// (stale-while-revalidate), so the caller can wait for the fresh response.
    func noteBackgroundRefresh(_ task: Task<RefreshedResponse, any Error>) {
        refresh.withLock { $0 = task }
    }

    /// The refresh the cache started in the background for this call, if any.
    var backgroundRefresh: Task<RefreshedResponse, any Error>? {
        refresh.withLock { $0 }
    }

    /// Records the decoded-value memo of the stored response the cache served.
    func noteDecodedMemo(_ decodedMemo: DecodedValueMemo) {
        memo.withLock { $0 = decodedMemo }
    }

    /// The decoded-value memo of the stored response the cache served, if it served one from memory.
    var decodedMemo: DecodedValueMemo? {
        memo.withLock { $0 }
    }

    /// Records how many bytes a compressed response body took on the wire, as a transport
    /// that decodes it reads it (the figure grows as the body arrives).
    public func noteEncodedBodyBytes(_ count: Int) {
        encodedBody.store(count, ordering: .relaxed)
    }

    /// How many encoded bytes the call's compressed response body took on the wire, when it
    /// was compressed and the transport counted them; `nil` otherwise (an uncompressed body
    /// takes as many bytes on the wire as it has, and URLSession does not tell).
    public var encodedBodyBytes: Int? {
        let count = encodedBody.load(ordering: .relaxed)
        return count < 0 ? nil : count
    }

    /// Records the HTTP version the transport received the attempt's response over.
    /// - Parameter version: The version, as the engine negotiated it.
    public func noteProtocolVersion(_ version: ProtocolVersion) {
        callRecord.protocolVersionValue.store(version.storageValue, ordering: .relaxed)
    }

    /// The HTTP version of the last response the transport received for the call; `nil` when
    /// none came or the transport did not say.
    public var protocolVersion: ProtocolVersion? {
        ProtocolVersion(storageValue: callRecord.protocolVersionValue.load(ordering: .relaxed))
    }

    /// Adds an observer of the call's ``ChainEvent``s: it hears every event noted from now on,
    /// at once, on the task that notes it. Keep it quick and never call into the chain from it.
    /// - Parameter observer: The closure to call with each event.
    public func observe(_ observer: @escaping @Sendable (ChainEvent) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    /// Tells the call's observers about a decision a stage made.
    /// - Parameter event: The decision.
    public func note(_ event: ChainEvent) {
        let current = observers.withLock { $0 }
        for observer in current { observer(event) }
    }

    /// Why the retry stage stopped trying, if it recorded a reason.
    public var retryStopReason: RetryStopReason? {
        retryStop.withLock { $0 }
    }
}

/// What a background refresh (stale-while-revalidate) received: the response, its body, and
/// whether it came whole from the network or as a 304 that revalidated the stored response.
struct RefreshedResponse: Sendable {
    var response: HTTPResponse
    var body: Data
    var cacheStatus: CacheStatus
}
