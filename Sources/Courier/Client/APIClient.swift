public import Foundation
public import HTTPTypes
import Tracing

/// Sends typed ``Request`` values through the middleware chain and a ``Transport``.
///
/// Make one client per API and share it; it is `Sendable` and keeps no per-call state.
/// The chain is built once, here, in the order ``Middleware`` documents.
///
/// ```swift
/// let client = APIClient(
///     configuration: ClientConfiguration(baseURL: URL(string: "https://api.example.com")!),
///     transport: AsyncHTTPClientTransport()
/// )
/// let user: User = try await client.value(for: Request(path: "/users/42"))
/// ```
///
/// Every failure is thrown as a ``CourierError``. Cancelling the calling task cancels the
/// request in the transport.
public final class APIClient: Sendable {
    /// The configuration the client was made with.
    public let configuration: ClientConfiguration
    /// The engine that sends requests.
    public let transport: any Transport
    private let chain: MiddlewareChain
    /// The first application middleware when it is ``DefaultHeadersMiddleware``: its fields
    /// are added while a call is prepared, and it is not a link of ``chain``.
    private let leadingDefaultHeaders: DefaultHeadersMiddleware?
    private let base: RequestTarget.Base
    /// Whether deadlines are on the system clock, so that transports may be handed them.
    private let clockIsSystemClock: Bool
    /// Whether requests offer `Accept-Encoding: gzip, deflate`: the configuration wants it
    /// and the transport decodes what comes back.
    private let offersCompression: Bool
    /// The origins this client sends credentials to.
    private let credentialScope: CredentialScope
    /// The dedup stage's calls in flight, `nil` when the client does not deduplicate (for
    /// tests, which wait on its waiter count).
    let inFlightCalls: InFlightCalls<DedupKey>?

    /// Makes a client.
    /// - Parameters:
    ///   - configuration: Base URL, middleware, timeouts, limits and coders.
    ///   - transport: The engine.
    public convenience init(configuration: ClientConfiguration, transport: any Transport) {
        self.init(configuration: configuration, transport: transport, attachesQueue: true)
    }

    /// Makes a client; `attachesQueue` is false for a client made by ``rebased(to:)``, whose
    /// queue the original client already delivers.
    init(configuration: ClientConfiguration, transport: any Transport, attachesQueue: Bool) {
        self.configuration = configuration
        self.transport = transport
        let base = RequestTarget.Base(configuration.baseURL)
        self.base = base
        self.clockIsSystemClock = configuration.clock is SystemClock
        self.offersCompression = configuration.acceptsCompressedResponses && transport.decodesContentEncoding
        let credentialScope = CredentialScope(baseURL: configuration.baseURL, additional: configuration.credentialOrigins)
        self.credentialScope = credentialScope
        let sessions = SessionResolver(single: configuration.auth, accounts: configuration.accounts)
        var stages: [any Middleware] = []
        if configuration.deduplicatesRequests {
            let dedup = DedupStage(auth: sessions, digest: configuration.cache?.credentialDigest ?? .random())
            stages.append(dedup)
            self.inFlightCalls = dedup.calls
        } else {
            self.inFlightCalls = nil
        }
        if let cache = configuration.cache {
            stages.append(CacheStage(cache: cache, defaultPolicy: configuration.cachePolicy, auth: sessions, base: base))
        }
        var lower: [any Middleware] = [
            RetryStage(
                policy: configuration.retryPolicy,
                budget: RetryBudget(configuration: configuration.retryBudget, clock: configuration.clock),
                clock: configuration.clock
            ),
        ]
        if let quota = configuration.quota { lower.append(QuotaStage(policy: quota, clock: configuration.clock, auth: sessions)) }
        if !sessions.isEmpty { lower.append(AuthStage(sessions: sessions)) }
        lower.append(RedirectStage(policy: configuration.redirectPolicy))
        if let connectivity = configuration.connectivity { lower.append(ConnectivityStage(monitor: connectivity, defaultWait: configuration.connectivityWait)) }
        if let compressor = configuration.requestBodyCompressor { lower.append(RequestCompressionStage(compressor: compressor)) }
        // The tracer is settled once, as a Logger settles its handler: the configuration's, else
        // the one bootstrapped by now. Without one, no tracing stage is linked: it costs nothing.
        let tracer = configuration.tracer ?? InstrumentationSystem.tracer
        let traces = !(tracer is NoOpTracer)
        if traces { lower.append(AttemptTracingStage(tracer: tracer)) }
        if let queue = configuration.offlineQueue {
            stages.append(OfflineQueueStage(
                queue: queue, connectivity: configuration.connectivity, defaultConnectivityWait: configuration.connectivityWait,
                auth: sessions, base: base
            ))
            // Replays go through the app's middleware (a BearerTokenMiddleware signs them as it
            // signed the live call, whose Authorization was not stored), then the stages below
            // the queue: retry, signing, redirects; and the cache's, so that a delivered write
            // invalidates what it changed.
            let invalidation = configuration.cache.map {
                [CacheStage(cache: $0, defaultPolicy: configuration.cachePolicy, auth: sessions, base: base)] as [any Middleware]
            } ?? []
            let replayChain = MiddlewareChain(
                application: configuration.middleware, stages: invalidation + lower, network: configuration.networkMiddleware, transport: transport
            )
            let connectivity = configuration.connectivity
            let auth = configuration.auth
            let accounts = configuration.accounts
            // With sessions per account, each write goes as its own account while that one is signed in;
            // otherwise only the signed-in account's. An unreadable credential throws: nothing is decided.
            let currentAccount: OfflineQueue.AccountSource = { owner in
                if let accounts { return try await accounts.hasCredential(owner) }
                return try await auth?.credential?.accountID == owner
            }
            if attachesQueue {
                // Replays are signed only for this client's origins, as live calls are.
                let entry = replayChain.entry
                let sender: Middleware.Next = { request, body, context in
                    var scoped = context
                    scoped.credentialScope = credentialScope
                    return try await entry(request, body, scoped)
                }
                // Its own session signs writes of no account; AccountSessions names accounts with new credentials.
                let (credentialChanges, accountChanges) = (auth?.credentialChanges(), accounts?.credentialChanges())
                Task {
                    await queue.attach(
                        sender: sender, connectivity: connectivity, account: currentAccount, credentialChanges: credentialChanges,
                        accountChanges: accountChanges, deliversAsOwner: accounts != nil
                    )
                }
            }
        }
        var application = configuration.middleware
        if let defaultHeaders = application.first as? DefaultHeadersMiddleware {
            // Only the call's span starts before the first middleware, and it reads no header
            // field, so adding its fields to the prepared request is the same as running it,
            // less a link and a copy of the fields.
            self.leadingDefaultHeaders = defaultHeaders
            application.removeFirst()
        } else {
            self.leadingDefaultHeaders = nil
        }
        // The call's span covers the whole call, the application middleware included.
        if traces { application.insert(CallTracingStage(tracer: tracer), at: 0) }
        self.chain = MiddlewareChain(
            application: application,
            stages: stages + lower,
            network: configuration.networkMiddleware,
            transport: transport
        )
    }

    /// Makes a client with the default configuration for a base URL.
    /// - Parameters:
    ///   - baseURL: The URL request paths are relative to.
    ///   - transport: The engine.
    public convenience init(baseURL: URL, transport: any Transport) {
        self.init(configuration: ClientConfiguration(baseURL: baseURL), transport: transport)
    }

    // MARK: - Sending

    /// Sends a request and decodes its JSON body.
    /// - Parameter request: The request.
    /// - Returns: The decoded value with the response it came from.
    /// - Throws: ``CourierError``: a non-success status, a transport failure, a body past the
    ///   size limit, or ``CourierError/Code/decodingFailed`` with the coding path.
    public func send<Value: Decodable>(_ request: Request<Value>) async throws -> Response<Value> {
        try await receive(request) { data, _ in
            let decoder = request.decoder ?? configuration.decoder
            return try decoder.decode(Value.self, from: data)
        }
    }

    /// Sends a request and decodes its JSON body; a `Sendable` value served from the memory
    /// tier of the cache is decoded once and reused while the stored body stays the same.
    /// - Parameter request: The request.
    /// - Returns: The decoded value with the response it came from.
    /// - Throws: ``CourierError``, as for any decoded call.
    public func send<Value: Decodable & Sendable>(_ request: Request<Value>) async throws -> Response<Value> {
        let decoder = request.decoder ?? configuration.decoder
        return try await receiveCall(request) { data, _, record in
            guard let memo = record.decodedMemo else { return try decoder.decode(Value.self, from: data) }
            if let decoded = memo.value(Value.self, decoder: decoder, body: data) { return decoded }
            let decoded = try decoder.decode(Value.self, from: data)
            memo.keep(decoded, decoder: decoder, body: data)
            return decoded
        }.response
    }

    /// Sends a request and returns just the decoded value (reused from the memory tier of
    /// the cache while the stored body stays the same).
    /// - Parameter request: The request.
    /// - Returns: The decoded value.
    /// - Throws: ``CourierError``.
    public func value<Value: Decodable & Sendable>(for request: Request<Value>) async throws -> Value {
        try await send(request).value
    }

    /// Sends a request and returns its raw body.
    /// - Parameter request: The request.
    /// - Returns: The body's bytes with the response.
    /// - Throws: ``CourierError``.
    public func send(_ request: Request<Data>) async throws -> Response<Data> {
        try await receive(request) { data, _ in data }
    }

    /// Sends a request and returns its body as UTF-8 text.
    /// - Parameter request: The request.
    /// - Returns: The text with the response.
    /// - Throws: ``CourierError``; ``CourierError/Code/decodingFailed`` if the body is not UTF-8.
    public func send(_ request: Request<String>) async throws -> Response<String> {
        try await receive(request) { data, _ in
            guard let text = String(data: data, encoding: .utf8) else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "the body is not UTF-8 text"))
            }
            return text
        }
    }

    /// Sends a request whose response body does not matter (204, or a body to ignore).
    /// - Parameter request: The request.
    /// - Returns: The response, with an empty value.
    /// - Throws: ``CourierError``.
    @discardableResult
    public func send(_ request: Request<Void>) async throws -> Response<Void> {
        try await receive(request) { _, _ in () }
    }

    /// Sends a request and returns just the decoded value.
    /// - Parameter request: The request.
    /// - Returns: The decoded value.
    /// - Throws: ``CourierError``.
    public func value<Value: Decodable>(for request: Request<Value>) async throws -> Value {
        try await send(request).value
    }

    /// Sends a request and returns just the raw body.
    /// - Parameter request: The request.
    /// - Returns: The body's bytes.
    /// - Throws: ``CourierError``.
    public func value(for request: Request<Data>) async throws -> Data {
        try await send(request).value
    }

    /// Sends a request and returns just the body as text.
    /// - Parameter request: The request.
    /// - Returns: The text.
    /// - Throws: ``CourierError``.
    public func value(for request: Request<String>) async throws -> String {
        try await send(request).value
    }

    /// Sends a request and returns its body as a stream, without reading it or limiting its size.
    ///
    /// Use it for large downloads. A non-success status is thrown as a ``CourierError``
    /// before the body is handed over. The per-attempt timeout also bounds reading the body,
    /// so give a long download a timeout to match. Streamed calls bypass
    /// the cache and are never shared with other calls. A compressed body is decoded as it is
    /// read, under the decompression ratio limit (``RequestOptions/maxDecompressionRatio``); a
    /// decoding failure ends the stream with ``CourierError/Code/contentDecodingFailed`` after
    /// the chunks already read.
    /// - Parameter request: The request.
    /// - Returns: The response head and its body (empty if the response had none).
    /// - Throws: ``CourierError``.
    public func stream<Value>(_ request: Request<Value>) async throws -> (HTTPResponse, HTTPBody) {
        var uncached = request
        uncached.options.cachePolicy = .bypass
        uncached.options.deduplicates = false
        var call = try prepare(uncached)
        // The caller reads a streamed body itself: only a limit it set applies (the client's
        // default is for bodies it gathers and decodes), and the transport enforces it.
        call.context.options.maxResponseBytes = request.options.maxResponseBytes
        do {
            let (response, body) = try await chain.entry(call.request, call.body, call.context)
            try await validate(response, body: body)
            return (response, body ?? HTTPBody(Data()))
        } catch {
            throw ErrorMapping.courierError(from: error, request: call.request, record: call.context.record)
        }
    }

    /// Sends a request that is already an `HTTPRequest` through the whole chain (dedup, cache,
    /// offline queue, retry, authentication, redirects, middleware), and hands back the
    /// response whatever its status: the caller reads a 404 or a 409 itself.
    ///
    /// It is the entry for code that builds its own requests, such as a generated OpenAPI
    /// client (`CourierOpenAPI`'s transport uses it). The client's defaults apply as to a typed
    /// ``Request``: timeout, limits, default headers, `Accept-Encoding`, the idempotency key
    /// in `options`. A GET may be answered from the cache and shared with identical calls in
    /// flight; the body then arrives in memory. Otherwise it streams, and
    /// ``RequestOptions/maxResponseBytes`` (the client's limit when the options set none)
    /// ends it with ``CourierError/Code/responseTooLarge`` as bytes arrive.
    /// - Parameters:
    ///   - request: The request. Without an authority, its path is relative to the client's
    ///     base URL (the base path is put before it); with one, it goes where it says, and the
    ///     client's credentials go only to its own origins (``ClientConfiguration/credentialOrigins``).
    ///   - body: The body, if any. Give a replayable one (``HTTPBody/IterationBehavior/multiple``)
    ///     when the request may be retried, redirected or queued.
    ///   - options: Timeout, cache policy, retry, authentication, idempotency.
    ///   - name: The endpoint's name, for metrics, logs and spans.
    /// - Returns: The response head and its body (empty when there is none).
    /// - Throws: ``CourierError`` for a failure to get a response (a status is never a failure here).
    public func send(
        _ request: HTTPRequest, body: HTTPBody?, options: RequestOptions = RequestOptions(), name: String? = nil
    ) async throws -> (HTTPResponse, HTTPBody) {
        var request = request
        if request.authority == nil {
            guard base.error == nil, let path = request.path, path.hasPrefix("/") else {
                throw CourierError(code: .invalidRequest, message: "a request without an authority needs a path that starts with /, and the client a valid base URL")
            }
            request.scheme = base.scheme
            request.authority = base.authority
            request.path = (base.path.hasSuffix("/") ? String(base.path.dropLast()) : base.path) + path
        }
        let call = prepare(request, body: body, options: options, endpoint: name ?? RequestContext.unnamedEndpoint)
        do {
            let (response, responseBody) = try await chain.entry(call.request, call.body, call.context)
            return (response, responseBody ?? HTTPBody(Data()))
        } catch {
            throw ErrorMapping.courierError(from: error, request: call.request, record: call.context.record)
        }
    }

    // MARK: - The call

    private struct PreparedCall {
        var request: HTTPRequest
        var body: HTTPBody?
        var context: RequestContext
    }

    func receive<Value>(
        _ request: Request<Value>,
        decode: (Data, HTTPResponse) throws -> Value
    ) async throws -> Response<Value> {
        try await receiveCall(request) { data, response, _ in try decode(data, response) }.response
    }

    /// Sends a call through the chain, and returns its response with the call's record.
    func receiveCall<Value>(
        _ request: Request<Value>,
        decode: (Data, HTTPResponse, CallRecord) throws -> Value
    ) async throws -> (response: Response<Value>, request: HTTPRequest, record: CallRecord) {
        let started = ContinuousClock.now
        let call = try prepare(request)
        // The usual case, an accepted status and a body already in memory, goes on without
        // a second wait; the work before and after it is in functions of their own, so that
        // this frame, which every call allocates, holds little.
        let response: HTTPResponse
        let data: Data
        do {
            let (head, body) = try await chain.entry(call.request, call.body, call.context)
            response = head
            if let buffered = try bufferedData(of: head, body, context: call.context) {
                data = buffered
            } else {
                data = try await collectedData(of: head, body, context: call.context)
            }
        } catch {
            throw ErrorMapping.thrownError(from: error, request: call.request, record: call.context.record)
        }
        return try finish(call, response: response, data: data, started: started, decode: decode)
    }

    /// The body's bytes when the status is accepted and the body already in memory (or
    /// absent); `nil` when reading it means waiting.
    @inline(never)
    private func bufferedData(of response: HTTPResponse, _ body: HTTPBody?, context: RequestContext) throws -> Data? {
        guard configuration.acceptsStatus(response.status) else { return nil }
        guard let body else { return Data() }
        return try body.collectedIfBuffered(upTo: responseLimit(context))
    }

    /// The most body bytes a call reads: its own limit, which `prepare` set from the client's.
    private func responseLimit(_ context: RequestContext) -> Int {
        context.options.maxResponseBytes ?? configuration.maxResponseBytes
    }

    /// Reads a body that is not in memory yet, after throwing for a status the configuration
    /// does not accept.
    private func collectedData(of response: HTTPResponse, _ body: HTTPBody?, context: RequestContext) async throws -> Data {
        try await validate(response, body: body)
        return try await body?.collect(upTo: responseLimit(context)) ?? Data()
    }

    /// Decodes a call's body and makes its response with its metrics.
    @inline(never)
    private func finish<Value>(
        _ call: PreparedCall,
        response: HTTPResponse,
        data: Data,
        started: ContinuousClock.Instant,
        decode: (Data, HTTPResponse, CallRecord) throws -> Value
    ) throws -> (response: Response<Value>, request: HTTPRequest, record: CallRecord) {
        let record = call.context.record
        let value: Value
        do {
            value = try decode(data, response, record)
        } catch {
            throw ErrorMapping.courierError(from: ErrorMapping.decodingError(error, data: data, response: response), request: call.request, record: record)
        }
        var metrics = ResponseMetrics(
            duration: ContinuousClock.now - started,
            bytesSent: call.body.flatMap { body in
                if case .known(let count) = body.length { return count }
                return nil
            },
            bytesReceived: data.count,
            attempts: record.transportCallCount,
            cacheStatus: record.cacheStatus
        )
        if metrics.cacheStatus == .network { (metrics.wireBytesReceived, metrics.protocolVersion) = (record.encodedBodyBytes, record.protocolVersion) }
        return (Response(value: value, http: response, data: data, metrics: metrics), call.request, record)
    }

    /// Turns a ``Request`` into an `HTTPRequest`, its body and a context.
    private func prepare<Value>(_ request: Request<Value>) throws -> PreparedCall {
        let target: RequestTarget
        let body: HTTPBody?
        do {
            if request.options.account != nil, configuration.accounts == nil { throw SessionResolver.noAccountSessions }
            target = try RequestTarget.make(base: base, path: request.path, query: request.query)
            body = try request.body?.makeBody(encoder: request.encoder ?? configuration.encoder)
        } catch let error as CourierError {
            var error = error
            error.method = request.method
            error.url = Redaction.redactedURL(request.path)
            throw error
        } catch {
            var wrapped = CourierError(code: .invalidRequest, message: "the request body could not be encoded", underlying: error)
            wrapped.method = request.method
            wrapped.url = Redaction.redactedURL(request.path)
            throw wrapped
        }

        var fields = request.headers
        if let contentType = request.body?.contentType, !fields.contains(.contentType) {
            fields.append(HTTPField(name: .contentType, value: contentType))
        }
        return prepare(
            HTTPRequest(method: request.method, scheme: target.scheme, authority: target.authority, path: target.pathAndQuery, headerFields: fields),
            body: body, options: request.options, endpoint: request.endpointName
        )
    }

    /// Completes a request on its way into the chain: the client's defaults in its options,
    /// its idempotency key, default headers and `Accept-Encoding` in its fields, and its context.
    private func prepare(_ request: consuming HTTPRequest, body: HTTPBody?, options requestOptions: RequestOptions, endpoint: String) -> PreparedCall {
        var options = requestOptions
        options.timeout = options.timeout ?? configuration.timeout
        options.maxResponseBytes = options.maxResponseBytes ?? configuration.maxResponseBytes
        options.maxDecompressionRatio = options.maxDecompressionRatio ?? configuration.maxDecompressionRatio
        // The fields are taken out of the request, so that adding to them copies nothing.
        var fields = request.headerFields
        request.headerFields = HTTPFields()
        // Room for every field added below (idempotency key, default headers, Accept-Encoding),
        // made in one step: the one copy of storage the caller's `Request` shares.
        fields.reserveCapacity(fields.count + 2 + (leadingDefaultHeaders?.maximumAddedFieldCount ?? 0))
        if let key = requestOptions.idempotencyKey, !fields.contains(.idempotencyKey) {
            fields.append(HTTPField(name: .idempotencyKey, value: key))
        }
        let requestID = RequestContext.makeRequestID()
        leadingDefaultHeaders?.addMissingFields(to: &fields, requestID: requestID)
        if fields.contains(.acceptEncoding) {
            // The caller (or its default headers) asked for codings of its choosing: it gets
            // the bytes as they came. `identity` alone asks for none; whatever comes anyway is decoded.
            if fields[.acceptEncoding]?.lowercased() != "identity" { options.decodesContentEncoding = false }
        } else if offersCompression, options.decodesContentEncoding, !fields.contains(.range) {
            // A range counts bytes of one representation: a resumed download asks for the
            // identity one, whose offsets are those of the decoded bytes it already has.
            fields.append(HTTPField(name: .acceptEncoding, value: ContentCoding.acceptEncoding))
        }
        let deadline = options.deadline.map { configuration.clock.now.advanced(by: $0) }
        // A deadline on an injected clock (a test's manual clock) means nothing to a socket:
        // only the system clock's deadline is handed to the transport.
        let context = RequestContext(
            requestID: requestID,
            endpoint: endpoint,
            options: options,
            deadline: deadline,
            transportDeadline: clockIsSystemClock ? options.deadline.map { ContinuousClock.now.advanced(by: $0) } : nil,
            credentialScope: credentialScope
        )
        request.headerFields = fields
        return PreparedCall(request: request, body: body, context: context)
    }

    /// Throws a ``CourierError`` for a status the configuration does not accept.
    func validate(_ response: HTTPResponse, body: HTTPBody?) async throws {
        guard !configuration.acceptsStatus(response.status) else { return }
        let snippetData = await body?.prefix(upTo: 64 << 10) ?? Data()
        throw ErrorMapping.statusError(response, body: snippetData)
    }
}

extension HTTPField.Name {
    /// `Idempotency-Key`: makes a write safe to repeat.
    public static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    /// `X-Request-ID`: a call's id, for correlating logs.
    public static let requestID = HTTPField.Name("X-Request-ID")!
}
