public import Foundation
public import HTTPTypes
public import Tracing

/// Everything an ``APIClient`` is made from. Values only: no engine, no globals.
public struct ClientConfiguration: Sendable {
    /// The URL that request paths are relative to, such as `https://api.example.com/v1`.
    public var baseURL: URL
    /// Application middleware: runs once per call, first in the chain (inside the call's span
    /// when a tracer is in use).
    public var middleware: [any Middleware]
    /// Network middleware: runs once per attempt, just before the transport.
    public var networkMiddleware: [any Middleware]
    /// The default per-attempt timeout; a request's ``RequestOptions/timeout`` overrides it.
    public var timeout: Duration?
    /// The most body bytes read for a decoded call (4 MiB by default); a request's
    /// ``RequestOptions/maxResponseBytes`` overrides it.
    public var maxResponseBytes: Int
    /// Whether requests offer `Accept-Encoding: gzip, deflate` and their compressed responses
    /// are decoded (`true` by default, when the transport decodes content codings; see
    /// ``Transport/decodesContentEncoding``). A request that sets its own `Accept-Encoding`,
    /// or a `Range`, is left as it is.
    public var acceptsCompressedResponses: Bool = true
    /// The most decoded bytes per encoded byte of a compressed response, past its first MiB;
    /// a request's ``RequestOptions/maxDecompressionRatio`` overrides it. 100 by default:
    /// JSON compresses 5 to 20 times, a decompression bomb a thousand.
    public var maxDecompressionRatio: Int = RequestOptions.defaultMaxDecompressionRatio
    /// Compresses the bodies of requests that ask for it (``RequestOptions/compressesRequestBody``);
    /// `nil` (the default) sends every body as it is. `CourierCompression`'s `GzipCompressor` is one.
    public var requestBodyCompressor: (any RequestBodyCompressor)?
    /// The tracer that records a span per call and a client span per attempt, with the chain's
    /// decisions as span events and `traceparent` injected into each request (see
    /// <doc:Tracing>). `nil` (the default) uses the tracer bootstrapped with swift-distributed-tracing's
    /// `InstrumentationSystem` when the client is made (bootstrap first, as with swift-log);
    /// with none, the client links no tracing stage and a call pays nothing for tracing.
    public var tracer: (any Tracer)?
    /// Encodes request bodies unless the request brings its own encoder.
    public var encoder: JSONEncoder
    /// Decodes response bodies unless the request brings its own decoder.
    public var decoder: JSONDecoder
    /// Which redirects are followed; credentials never cross to another origin.
    public var redirectPolicy: RedirectPolicy
    /// Whether identical GETs in flight share one call (yes by default).
    public var deduplicatesRequests: Bool
    /// The HTTP cache; `nil` (the default) caches nothing.
    public var cache: HTTPCache?
    /// The cache policy for requests that do not set their own.
    public var cachePolicy: CachePolicy
    /// The retry policy for requests that do not set their own.
    public var retryPolicy: RetryPolicy
    /// The client-wide limit on retries.
    public var retryBudget: RetryBudget.Configuration
    /// The signed-in user's session: signs requests and renews credentials. `nil` sends
    /// requests unsigned.
    public var auth: AuthSession?
    /// The sessions of many accounts, for a service that signs calls for many users; a
    /// request picks one with ``RequestOptions/account``. `nil` by default. See ``AccountSessions``.
    public var accounts: AccountSessions?
    /// Origins besides the ``baseURL``'s that may receive the client's credentials, such as
    /// `https://uploads.example.com` for an API that hands out upload URLs on another host.
    /// Empty by default: requests to any other origin (an absolute URL, a server's "next
    /// page" link, a redirect hop) go out unsigned. Only the scheme, host and port count.
    public var credentialOrigins: [URL] = []
    /// The time source for retry waits, deadlines and the retry budget.
    public var clock: any CourierClock
    /// Which statuses count as success; others become a ``CourierError``. 2xx by default.
    public var acceptsStatus: @Sendable (HTTPResponse.Status) -> Bool
    /// The durable queue that keeps queueable writes the server could not receive; `nil`
    /// (the default) fails them like any request. See ``OfflineQueue``.
    public var offlineQueue: OfflineQueue?
    /// The providers' quotas every attempt keeps to (``QuotaPolicy``); `nil` (none) by default.
    public var quota: QuotaPolicy?
    /// The connectivity monitor the client reports to and consults; `nil` by default.
    /// See ``ConnectivityMonitor``.
    public var connectivity: ConnectivityMonitor?
    /// How long a request waits for connectivity when the ``connectivity`` monitor says
    /// offline, before trying anyway, unless it sets its own ``RequestOptions/connectivityWait``.
    /// `nil` (the default) tries at once: waiting is opt-in, as URLSession's
    /// `waitsForConnectivity` is.
    public var connectivityWait: Duration?

    /// Makes a configuration.
    /// - Parameters:
    ///   - baseURL: The URL request paths are relative to.
    ///   - middleware: Application middleware, in order. By default, ``DefaultHeadersMiddleware``
    ///     and ``MetricsMiddleware``.
    ///   - networkMiddleware: Network middleware, in order. Add a ``LoggingMiddleware`` here to
    ///     log each attempt.
    ///   - timeout: The default per-attempt timeout (30 seconds, as the apps' documents set it).
    ///   - maxResponseBytes: The most body bytes read for a decoded call.
    ///   - redirectPolicy: Which redirects are followed.
    ///   - deduplicatesRequests: Whether identical GETs in flight share one call.
    ///   - cache: The HTTP cache, if responses are cached.
    ///   - cachePolicy: The default cache policy.
    ///   - retryPolicy: The default retry policy.
    ///   - retryBudget: The client-wide limit on retries.
    ///   - auth: The signed-in user's session, if requests are signed.
    ///   - clock: The time source.
    ///   - encoder: The JSON encoder; ``JSONCoding/makeEncoder()`` by default.
    ///   - decoder: The JSON decoder; ``JSONCoding/makeDecoder()`` by default.
    public init(
        baseURL: URL,
        middleware: [any Middleware] = [DefaultHeadersMiddleware(), MetricsMiddleware()],
        networkMiddleware: [any Middleware] = [],
        timeout: Duration? = .seconds(30),
        maxResponseBytes: Int = 4 << 20,
        redirectPolicy: RedirectPolicy = .default,
        deduplicatesRequests: Bool = true,
        cache: HTTPCache? = nil,
        cachePolicy: CachePolicy = .http,
        retryPolicy: RetryPolicy = .default,
        retryBudget: RetryBudget.Configuration = RetryBudget.Configuration(),
        auth: AuthSession? = nil,
        clock: any CourierClock = SystemClock(),
        encoder: JSONEncoder = JSONCoding.makeEncoder(),
        decoder: JSONDecoder = JSONCoding.makeDecoder()
    ) {
        self.baseURL = baseURL
        self.middleware = middleware
        self.networkMiddleware = networkMiddleware
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
        self.redirectPolicy = redirectPolicy
        self.deduplicatesRequests = deduplicatesRequests
        self.cache = cache
        self.cachePolicy = cachePolicy
        self.retryPolicy = retryPolicy
        self.retryBudget = retryBudget
        self.auth = auth
        self.clock = clock
        self.encoder = encoder
        self.decoder = decoder
        self.acceptsStatus = { $0.kind == .successful }
    }
}
