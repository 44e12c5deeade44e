public import AsyncHTTPClient
public import Courier
import CourierCompression
import Foundation
public import HTTPTypes
public import NIOCore
public import NIOPosix
import NIOHTTP1
import Synchronization

/// A `Transport` on AsyncHTTPClient: the default engine on Linux.
///
/// It owns one `HTTPClient` (on NIO's shared event loop group unless told otherwise) with
/// a connection pool per host, streams response bodies as they arrive (a small one of known
/// length is read at once, see ``eagerBodyLimit``), and never follows
/// redirects itself and does not retry failed connections: Courier's chain decides both. Call ``shutdown()`` when done with it.
///
/// ```swift
/// let transport = AsyncHTTPClientTransport(configuration: .init(connectionsPerHost: 16))
/// defer { Task { try await transport.shutdown() } }
/// let client = APIClient(baseURL: url, transport: transport)
/// ```
///
/// ## Threads
/// An exchange that starts while others are in flight on the transport runs with a task
/// executor preference for one of the client's event loops (in turn): AsyncHTTPClient's own
/// work for the request (its deadline, a pooled connection, writing the request, resuming the
/// call when the head arrives, reading a small body) is then done on the loop's thread, where
/// it would otherwise be handed to the loop from the global pool, waking it each time. The
/// preference ends when ``send(_:body:context:)`` returns: the chain's code after it, and a
/// streamed request body (read by AsyncHTTPClient in a task of its own), never run on an event
/// loop; nor does decoding a compressed body, which goes back to the global pool.
///
/// An exchange alone in flight runs where its caller does, as a call of raw AsyncHTTPClient
/// does: with no other request to share the loop's turns with, the preference saves nothing
/// and costs the trips onto the loop and back (two more when the loop it names is not the one
/// of the connection the pool hands out).
///
/// Measured with `courier bench --only throughput` and only AsyncHTTPClient's contenders,
/// Courier's rate as a share of raw AsyncHTTPClient's, by round median, over several runs:
///
/// | | server in another process | server in the same process |
/// |---|---|---|
/// | 32 in flight, with the preference (as now) | 0.81–0.84 | 0.74–0.80 |
/// | 32 in flight, without it | 0.65 | 0.78 |
/// | one at a time, with it | 0.92–0.93 | 0.81–0.83 |
/// | one at a time, without it (as now) | 0.91–0.92 | 0.90–0.93 |
///
/// Without the preference, a lone call also makes 1 to 3 fewer allocations.
///
/// ## Request bodies
/// A body held in memory is handed to AsyncHTTPClient whole. A streamed one (a file, a
/// multipart form, chunks of your own) is read as it goes out, paced so that at most about
/// 1 MiB of it waits on the event loops for the socket (see `PacedRequestBody`): AsyncHTTPClient
/// on its own reads on while the loop has not yet run the writes handed to it. In
/// `courier bench --only transfer`, raw AsyncHTTPClient uploading 512 MB from a file grew its
/// process by 10 to 150 MB from run to run, and this transport by at most 1.1 MB.
///
/// ## TLS
/// ``Configuration/tls`` sets the minimum TLS version and the trust roots (applied through
/// NIOSSL) and the pinned public keys. Every TLS failure ends in a `CourierError`
/// with code `CourierError.Code.tlsFailure`, which is not among a retry policy's
/// default retryable failures.
///
/// Pins are checked once per new connection, after the handshake and before any request is
/// written on it; a mismatch closes the connection and fails the requests waiting for it.
/// AsyncHTTPClient lets the transport see only the server's **leaf** certificate, not the
/// chain it validated, so a pin matches when it is the leaf's key, or when the trust roots
/// are `TLSPolicy.TrustRoots.certificates(_:)` and every one of those roots is
/// pinned (the handshake proved the chain ends at one of them). A pin of an intermediate
/// CA, or of one root among several or among the system's, cannot be checked here: the
/// connection fails with a message saying so, never silently succeeds.
public final class AsyncHTTPClientTransport: Transport {
    /// How the transport's `HTTPClient` is set up.
    public struct Configuration: Sendable {
        /// The most HTTP/1.1 connections kept open to one host.
        public var connectionsPerHost: Int
        /// How long making a connection may take.
        ///
        /// AsyncHTTPClient also bounds by it how long a request waits for a connection from the
        /// pool: with more requests in flight to one host than ``connectionsPerHost``, one that
        /// waits longer than this fails with `CourierError.Code.timedOut`, whatever its own
        /// timeout. Raise it (or the pool) for bursts of many concurrent requests.
        public var connectTimeout: Duration
        /// How long an idle pooled connection is kept.
        public var idleTimeout: Duration
        /// The minimum TLS version, trust roots and pinned keys for HTTPS; the system's
        /// defaults (TLS 1.2 or newer, the system trust store, no pins) unless set.
        public var tls: TLSPolicy
        /// Which HTTP versions the transport speaks: ``HTTPVersionChoice/automatic`` (HTTP/2
        /// where a server offers it by ALPN over TLS, HTTP/1.1 otherwise) unless set.
        public var httpVersion: HTTPVersionChoice

        /// Which HTTP versions a transport speaks.
        ///
        /// Over HTTP/2, AsyncHTTPClient keeps one connection per origin and runs as many
        /// requests on it at once as the server's `SETTINGS_MAX_CONCURRENT_STREAMS` allows (100
        /// when the server announces none); requests past that wait in the pool for a stream, a
        /// wait bounded by ``connectTimeout`` like a wait for an HTTP/1.1 connection.
        /// ``connectionsPerHost`` bounds HTTP/1.1 connections only.
        public enum HTTPVersionChoice: Sendable, Hashable {
            /// HTTP/2 when the server offers it (by ALPN, over TLS), HTTP/1.1 otherwise.
            case automatic
            /// HTTP/1.1 only, whatever the server offers.
            case http1Only
        }

        /// Makes a configuration.
        /// - Parameters:
        ///   - connectionsPerHost: The pool size per host (8 by default).
        ///   - connectTimeout: The connect timeout (10 seconds by default).
        ///   - idleTimeout: How long idle connections are kept (60 seconds by default).
        ///   - tls: The TLS policy (the system's defaults by default).
        ///   - httpVersion: Which HTTP versions to speak (``HTTPVersionChoice/automatic`` by default).
        public init(
            connectionsPerHost: Int = 8,
            connectTimeout: Duration = .seconds(10),
            idleTimeout: Duration = .seconds(60),
            tls: TLSPolicy = .init(),
            httpVersion: HTTPVersionChoice = .automatic
        ) {
            self.connectionsPerHost = connectionsPerHost
            self.connectTimeout = connectTimeout
            self.idleTimeout = idleTimeout
            self.tls = tls
            self.httpVersion = httpVersion
        }
    }

    /// The underlying client.
    public let httpClient: HTTPClient
    /// Executors for the client's event loops, which exchanges prefer in turn (see "Threads").
    private let loopExecutors: LoopExecutors
    /// The exchanges in flight: whether there are any decides whether the next one prefers a
    /// loop (see "Threads").
    private let inFlight = Atomic<Int>(0)
    private let ownsClient: Bool
    /// Why the configuration's TLS policy could not be applied; every request then fails with it.
    private let configurationError: CourierError?
    /// The TLS policy the transport was made with; `nil` for one made from an AsyncHTTPClient
    /// configuration (``init(clientConfiguration:eventLoopGroup:)``), whose policy it does not know. CourierWebSocket's `WSClientEngine`
    /// applies it to WebSocket handshakes when this transport is its handshake-status probe.
    package let tlsPolicy: TLSPolicy?

    /// Makes a transport with its own `HTTPClient`.
    ///
    /// A TLS policy that cannot be applied (a malformed pin, a trust root that is not a DER
    /// certificate) does not stop the transport from being made, but every request then fails
    /// with the `CourierError.Code.invalidRequest` error that names the problem; call
    /// `TLSPolicy.validate()` first to find out early.
    /// - Parameters:
    ///   - configuration: Pool, timeouts and TLS.
    ///   - eventLoopGroup: The event loops to run on; NIO's shared group by default.
    public init(
        configuration: Configuration = Configuration(),
        eventLoopGroup: MultiThreadedEventLoopGroup = .singleton
    ) {
        var clientConfiguration = HTTPClient.Configuration()
        clientConfiguration.redirectConfiguration = .disallow
        clientConfiguration.timeout = .init(connect: Self.timeAmount(configuration.connectTimeout), read: nil)
        clientConfiguration.connectionPool = .init(
            idleTimeout: Self.timeAmount(configuration.idleTimeout),
            concurrentHTTP1ConnectionsPerHostSoftLimit: configuration.connectionsPerHost
        )
        clientConfiguration.httpVersion = configuration.httpVersion == .http1Only ? .http1Only : .automatic
        // AsyncHTTPClient would otherwise keep retrying a refused connection until the
        // request's deadline; retries are the chain's decision, so fail at once.
        clientConfiguration.connectionPool.retryConnectionEstablishment = false
        do {
            try clientConfiguration.applyTLSPolicy(configuration.tls)
            self.configurationError = nil
        } catch {
            self.configurationError = error as? CourierError
                ?? CourierError(code: .invalidRequest, message: "the TLS policy could not be applied", underlying: error)
        }
        clientConfiguration.classifyStreamsAboveGoAway()
        self.httpClient = HTTPClient(eventLoopGroup: eventLoopGroup, configuration: clientConfiguration)
        self.loopExecutors = LoopExecutors(group: eventLoopGroup)
        self.ownsClient = true
        self.tlsPolicy = configuration.tls
    }

    /// Makes a transport that owns an `HTTPClient` made from your AsyncHTTPClient
    /// configuration (its pool, timeouts, proxy, TLS, decompression) on your event loops, such
    /// as the ones a service already runs its other clients on.
    ///
    /// Whatever the configuration says of redirects, the client never follows one by itself:
    /// `redirectConfiguration` is set to `.disallow`, so that Courier's redirect rules apply to
    /// every hop (credentials and bodies never go to another origin). An `HTTPClient` made
    /// elsewhere is not taken, because its redirect configuration cannot be read or changed:
    /// one with AsyncHTTPClient's default would follow a cross-origin 307 with the request's
    /// body and headers. Each HTTP/2 connection also gets the handler that tells streams a
    /// server's `GOAWAY` left unprocessed (see "Retries by what the server saw" in the README),
    /// ahead of any `http2ConnectionDebugInitializer` you set. ``shutdown()`` shuts the
    /// transport's client down, not the loops.
    /// - Parameters:
    ///   - clientConfiguration: The client's configuration; apply a `TLSPolicy` to it with
    ///     `HTTPClient.Configuration.applyTLSPolicy(_:)`.
    ///   - eventLoopGroup: The event loops to run on.
    public convenience init(clientConfiguration: HTTPClient.Configuration, eventLoopGroup: any EventLoopGroup) {
        var configuration = clientConfiguration
        configuration.redirectConfiguration = .disallow
        configuration.classifyStreamsAboveGoAway()
        self.init(owning: HTTPClient(eventLoopGroup: eventLoopGroup, configuration: configuration))
    }

    /// Makes a transport on a client it owns and shuts down.
    private init(owning client: HTTPClient) {
        self.httpClient = client
        self.loopExecutors = LoopExecutors(group: client.eventLoopGroup)
        self.ownsClient = true
        self.configurationError = nil
        self.tlsPolicy = nil
    }

    /// Makes a transport on an `HTTPClient` it does not own (``shutdown()`` leaves it
    /// running), for the benchmark alone, whose contenders must share one pool. Not public:
    /// such a client's redirect configuration cannot be checked.
    /// - Parameter client: A client made with `redirectConfiguration = .disallow`.
    package init(sharing client: HTTPClient) {
        self.httpClient = client
        self.loopExecutors = LoopExecutors(group: client.eventLoopGroup)
        self.ownsClient = false
        self.configurationError = nil
        self.tlsPolicy = nil
    }

    /// `true`: compressed response bodies are decoded here, with compress-nio, a window at a
    /// time (see `Transport.decodesContentEncoding`).
    public var decodesContentEncoding: Bool { true }

    /// Shuts the owned `HTTPClient` down, closing its connections. Idempotent.
    public func shutdown() async throws {
        guard ownsClient else { return }
        do {
            try await httpClient.shutdown()
        } catch let error as HTTPClientError where error == .alreadyShutdown {
            return
        }
    }

    /// Sends the request with AsyncHTTPClient and returns the response.
    ///
    /// A body of known length up to ``eagerBodyLimit`` (and within the call's
    /// `RequestOptions.maxResponseBytes`) is read before this returns, so a
    /// failure while reading it fails the attempt; any other body is streamed as it arrives.
    public func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext
    ) async throws -> (HTTPResponse, HTTPBody?) {
        // Alone, an exchange runs where its caller does; beside others, on a loop (see "Threads").
        let othersInFlight = inFlight.add(1, ordering: .relaxed).oldValue
        defer { inFlight.subtract(1, ordering: .relaxed) }
        if othersInFlight == 0 {
            return try await exchange(request, body: body, context: context)
        }
        return try await withTaskExecutorPreference(loopExecutors.next()) {
            try await exchange(request, body: body, context: context)
        }
    }

    /// How many exchanges are in flight on the transport (for tests).
    package var exchangesInFlight: Int { inFlight.load(ordering: .relaxed) }

    /// The exchange itself, on the loop ``send(_:body:context:)`` prefers, if it prefers one.
    private func exchange(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try throwConfigurationError()
        var witness: UnsentBodyWitness?
        let clientRequest = try Self.makeClientRequest(request, body: body, loops: loopExecutors, witness: &witness)
        // NIO keeps its own clock: one reading of it, with the time the attempt has left.
        let deadline = context.attemptTimeLeft.map { .now() + Self.timeAmount($0) } ?? .distantFuture
        let response: HTTPClientResponse
        do {
            response = try await httpClient.execute(clientRequest, deadline: deadline)
        } catch {
            let failure = AHCErrorMapping.map(error, beforeResponse: true)
            throw witness?.markingUnsent(failure) ?? failure
        }
        if let version = ProtocolVersion(major: response.version.major, minor: response.version.minor) {
            context.record.noteProtocolVersion(version)
        }
        // What to do with the response is decided in a function of its own, and each way of
        // reading the body has one, so that this frame, which every request allocates, holds
        // little more than the engine's request and response.
        switch try Self.plan(response, method: request.method, context: context) {
        case .answer(let head, let body):
            return (head, body)
        case .collect(let head, let count):
            return (head, try await Self.collected(response.body, count: count))
        case .decode(let head, let length, let coding):
            // Decoding is work for the CPU, which the loop's other connections would wait
            // for: it runs on the global pool.
            return try await withTaskExecutorPreference(globalConcurrentExecutor) {
                try await decoded(response.body, head: head, length: length, coding: coding, context: context)
            }
        }
    }

    /// Throws the error a transport made with an unusable configuration keeps; out of line, so
    /// that `send`'s frame keeps no room for a ``CourierError``.
    @inline(never)
    private func throwConfigurationError() throws {
        if let configurationError { throw configurationError }
    }

    /// How a response's body is handed on.
    private enum ResponsePlan {
        /// The head, with no body or a streamed one.
        case answer(HTTPResponse, HTTPBody?)
        /// A small body of known length, read before `send` returns.
        case collect(HTTPResponse, count: Int)
        /// A compressed body, decoded.
        case decode(HTTPResponse, HTTPBody.Length, ContentCoding)
    }

    /// Decides, from its head, how a response's body is handed on.
    @inline(never)
    private static func plan(_ response: HTTPClientResponse, method: HTTPRequest.Method, context: RequestContext) throws -> ResponsePlan {
        let (head, length) = try ResponseHead.make(
            headers: response.headers,
            status: Int(response.status.code),
            reasonPhrase: response.status.reasonPhrase,
            method: method
        )
        let decodes = context.options.decodesContentEncoding && head.headerFields.contains(.contentEncoding)
        guard let length else {
            // No body to decode; the head still describes what a GET would get: decoded.
            if decodes, (try? ContentCoding.of(head.headerFields)) != nil { return .answer(ContentCoding.decodedHead(head), nil) }
            return .answer(head, nil)
        }
        if decodes, let coding = try ContentCoding.of(head.headerFields) {
            return .decode(head, length, coding)
        }
        let limit = context.options.maxResponseBytes
        if let limit, case .known(let count) = length, count > Int64(limit) {
            // Refused with its head: not a byte of the body is read.
            throw CourierError(code: .responseTooLarge, message: "the response body (Content-Length \(count)) is larger than the limit of \(limit) bytes")
        }
        let eagerLimit = min(Self.eagerBodyLimit, limit ?? Self.eagerBodyLimit)
        guard case .known(let count) = length, count >= 0, count <= Int64(eagerLimit) else {
            return .answer(head, HTTPBody(ResponseChunks(body: response.body, limit: limit), length: length, iterationBehavior: .single))
        }
        // A small body of known length is read before `send` returns, in one piece, with the
        // engine's own collector: the caller gets bytes it can read at once (and twice), and
        // skips a layer of streaming per chunk.
        return .collect(head, count: Int(count))
    }

    /// Reads a small body of known length in one piece; a failure reading it fails the attempt.
    @inline(never)
    private static func collected(_ body: HTTPClientResponse.Body, count: Int) async throws -> HTTPBody {
        do {
            return HTTPBody(data(try await body.collect(upTo: count)))
        } catch {
            throw AHCErrorMapping.map(error)
        }
    }

    /// A compressed body, decoded: read and decoded here when its encoded length is known and
    /// small, streamed through the decoder otherwise.
    @inline(never)
    private func decoded(
        _ body: HTTPClientResponse.Body,
        head: HTTPResponse,
        length: HTTPBody.Length,
        coding: ContentCoding,
        context: RequestContext
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let limits = DecodingLimits(options: context.options)
        let head = ContentCoding.decodedHead(head)
        guard case .known(let count) = length, count >= 0, count <= Int64(Self.eagerBodyLimit) else {
            return (head, HTTPBody(DecodedResponseChunks(body: body, coding: coding, limits: limits, record: context.record), iterationBehavior: .single))
        }
        let encoded: ByteBuffer
        do {
            encoded = try await body.collect(upTo: Int(count))
        } catch {
            throw AHCErrorMapping.map(error)
        }
        context.record.noteEncodedBodyBytes(encoded.readableBytes)
        do {
            return (head, HTTPBody(try DecodedResponseChunks.decodeWhole(encoded, coding: coding, limits: limits)))
        } catch let error as CourierError where error.code == .contentDecodingFailed && !(200..<300).contains(head.status.code) {
            // An error page that does not decode is still its status: a 503 is retried, a 401
            // refreshes the credential. Its body, unreadable, is left out.
            return (head, HTTPBody(Data()))
        }
    }

    /// Response bodies of a known length up to this many bytes are read before ``send(_:body:context:)``
    /// returns; longer ones, and those of unknown length, are streamed.
    public static let eagerBodyLimit = 64 << 10

    // MARK: - Conversions

    /// The engine's request. A buffered body of a request the chain could not otherwise send
    /// again goes through an ``UnsentBodyWitness``, returned in `witness`.
    @inline(never)
    static func makeClientRequest(
        _ request: HTTPRequest, body: HTTPBody?, loops: LoopExecutors, witness: inout UnsentBodyWitness?
    ) throws -> HTTPClientRequest {
        guard let url = request.absoluteURLString else {
            throw CourierError(code: .invalidRequest, message: "the request has no scheme or authority")
        }
        var clientRequest = HTTPClientRequest(url: url)
        clientRequest.method = HTTPMethod(rawValue: request.method.rawValue)
        clientRequest.headers.reserveCapacity(request.headerFields.count)
        for field in request.headerFields {
            clientRequest.headers.add(name: field.name.rawName, value: field.value)
        }
        if let body {
            if let data = body.bufferedData {
                if UnsentBodyWitness.isNeeded(for: request) {
                    let observer = UnsentBodyWitness()
                    witness = observer
                    clientRequest.body = .stream(observer.body(ByteBuffer(bytes: data)), length: .known(Int64(data.count)))
                } else {
                    clientRequest.body = .bytes(ByteBuffer(bytes: data))
                }
            } else {
                let length: HTTPClientRequest.Body.Length
                switch body.length {
                case .known(let count): length = .known(count)
                case .unknown: length = .unknown
                }
                clientRequest.body = .stream(PacedRequestBody(body: body, settle: loops.settle), length: length)
            }
        }
        return clientRequest
    }

    /// A buffer's readable bytes as `Data`, copied in one step. (`Data(_:)` over the bytes'
    /// view takes the generic path for sequences, which boxes the view to look for
    /// contiguous storage: an allocation and a dynamic cast per body.)
    static func data(_ buffer: ByteBuffer) -> Data {
        buffer.withUnsafeReadableBytes { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return Data() }
            return Data(bytes: base, count: bytes.count)
        }
    }

    private static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
    }
}

/// A response body from AsyncHTTPClient as chunks of `Data`, with engine errors mapped to
/// `CourierError`.
struct ResponseChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let body: HTTPClientResponse.Body
    /// The call's `RequestOptions.maxResponseBytes`: a body that grows past it
    /// ends with `CourierError.Code.responseTooLarge`, as on every transport.
    let limit: Int?

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: HTTPClientResponse.Body.AsyncIterator
        let limit: Int?
        var received = 0

        mutating func next() async throws -> Data? {
            let buffer: ByteBuffer?
            do {
                buffer = try await base.next()
            } catch {
                throw AHCErrorMapping.map(error)
            }
            guard let buffer else { return nil }
            received += buffer.readableBytes
            if let limit, received > limit {
                throw CourierError(code: .responseTooLarge, message: "the response body grew past the limit of \(limit) bytes")
            }
            return AsyncHTTPClientTransport.data(buffer)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: body.makeAsyncIterator(), limit: limit)
    }
}
