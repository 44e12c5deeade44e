import Foundation
public import HTTPTypes

/// The one error type Courier throws.
///
/// Switch on ``code`` to decide what to do; read the context (``method``, ``url``,
/// ``status``, ``bodySnippet``, ``serverMessage``, ``codingPath``, ``underlying``) to
/// debug. The URL and headers held here are already redacted: they are safe to log.
///
/// ```swift
/// do {
///     let radar = try await client.value(for: RadarEndpoints.get(id: id))
/// } catch let error as CourierError {
///     switch error.code {
///     case .notFound: showMissing()
///     case .unauthorized: signIn()
///     default: show(error.userFacing)
///     }
/// }
/// ```
public struct CourierError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var code: Code
    /// A sentence for developers, naming what failed.
    public var message: String
    /// The request's method, when known.
    public var method: HTTPRequest.Method?
    /// The request's URL with secrets redacted, when known.
    public var url: String?
    /// The response's status, when a response arrived.
    public var status: HTTPResponse.Status?
    /// The response's header fields with secrets redacted, when a response arrived.
    public var headers: HTTPFields?
    /// The start of the response body (at most ``CourierError/snippetLimit`` bytes, as text).
    public var bodySnippet: String?
    /// The server's own explanation, read from a JSON error body (`message`, `error` or `detail`).
    public var serverMessage: String?
    /// The server's machine-readable error code, read from a JSON error body's `code`.
    public var serverCode: String?
    /// For ``Code/decodingFailed``: where in the JSON decoding failed, such as `items[1].id`.
    public var codingPath: String?
    /// For ``Code/rateLimited`` and server errors: how long the server asked us to wait.
    public var retryAfter: Duration?
    /// The error this one wraps, if any.
    public var underlying: (any Error)?
    /// How many times the call reached the transport.
    public var attempts: Int?
    /// Why the retry stage stopped trying, when it stopped for a reason other than the
    /// outcome itself (attempts used up, budget spent, deadline, `Retry-After` too long).
    public var retryStopReason: RetryStopReason?
    /// The offline queue's id for the write, when the code is ``Code/queued``.
    public var queuedRequestID: String?
    /// For ``Code/redirectNotFollowed``: where the server redirected to, with sensitive query
    /// values redacted.
    public var redirectLocation: String?

    /// For a transport failure: whether the server is known not to have processed the request,
    /// so that sending it again cannot apply it twice, whatever its method.
    ///
    /// Engines set it only where the protocol guarantees it: the connection was never made
    /// (refused, a connect or TLS handshake that timed out, no connection from the pool in
    /// time); on HTTP/2, the server refused the stream (`REFUSED_STREAM`) or the stream was
    /// opened after a `GOAWAY`. It stays `false` whenever the request may have reached the
    /// server, and whenever an engine cannot tell. The retry policy retries a never-processed
    /// failure for every method (a POST without an idempotency key included); the rest only for
    /// idempotent or keyed requests.
    public var neverProcessed = false
    /// For a transport failure: whether it came before any of the response, rather than while
    /// the body was read. A connection or stream lost before the answer is what a server that
    /// drains its connections causes; the retry policy sends such a request again at once, once,
    /// when that is safe (``neverProcessed``, or an idempotent or keyed request).
    public var failedBeforeResponse = false
    /// The most body bytes kept in ``bodySnippet``.
    public static let snippetLimit = 1_024

    /// Makes an error.
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - message: A sentence for developers.
    ///   - underlying: The error this one wraps.
    public init(code: Code, message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// Whether trying the same request again might succeed: transport failures other than
    /// cancellation, 408, 429 and 5xx other than 501 and 505.
    public var isRetryable: Bool {
        switch code {
        case .offline, .timedOut, .cannotConnect, .connectionLost, .rateLimited:
            return true
        case .serverError:
            guard let status else { return true }
            return ![501, 505].contains(status.code)
        case .clientError:
            return status?.code == 408
        default:
            return false
        }
    }

    /// A one-line description with the code, the request and the status.
    public var description: String {
        var parts = ["CourierError.\(code): \(message)"]
        if let method, let url { parts.append("(\(method.rawValue) \(url))") }
        if let status { parts.append("status \(status.code)") }
        if let serverMessage { parts.append("server said: \(serverMessage)") }
        if let codingPath { parts.append("at \(codingPath)") }
        if let underlying { parts.append("underlying: \(underlying)") }
        return parts.joined(separator: " ")
    }
}

extension CourierError {
    /// What went wrong, as a value users can switch on.
    ///
    /// A struct with static members rather than an enum, so that later versions can add
    /// codes without breaking a user's exhaustive `switch`; always include a `default:`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String, Hashable, Sendable {
            case invalidRequest, offline, timedOut, cannotConnect, connectionLost, cancelled
            case transportFailed, tlsFailure, invalidResponse, unauthorized, forbidden, notFound
            case rateLimited, clientError, serverError, decodingFailed, responseTooLarge, queued
            case fileSystem, notCached, tooManyRedirects, redirectNotFollowed, queuedWriteAhead
            case contentDecodingFailed, storageFailed
        }

        private let kind: Kind

        private init(_ kind: Kind) { self.kind = kind }

        /// The code's name.
        public var description: String { kind.rawValue }

        /// The request could not be built or sent as given (bad path, body, header or middleware).
        public static let invalidRequest = Code(.invalidRequest)
        /// The server could not be reached, and the write was stored in the offline queue
        /// instead: ``CourierError/queuedRequestID`` names it. It will be delivered later.
        public static let queued = Code(.queued)
        /// The device has no network.
        public static let offline = Code(.offline)
        /// The request took longer than its timeout or deadline.
        public static let timedOut = Code(.timedOut)
        /// No connection could be made (refused, unknown host, unreachable).
        public static let cannotConnect = Code(.cannotConnect)
        /// The connection broke before the response was complete (reset, closed, truncated body).
        public static let connectionLost = Code(.connectionLost)
        /// The calling task was cancelled.
        public static let cancelled = Code(.cancelled)
        /// Another transport failure (protocol or engine errors).
        public static let transportFailed = Code(.transportFailed)
        /// The TLS handshake failed: an untrusted or expired certificate, a public key that does
        /// not match a pin, or no common protocol version. Never retried.
        public static let tlsFailure = Code(.tlsFailure)
        /// The server's answer could not be read as HTTP (bad headers, bad framing).
        public static let invalidResponse = Code(.invalidResponse)
        /// 401: the credential is missing, wrong or expired.
        public static let unauthorized = Code(.unauthorized)
        /// 403: the credential is valid but not allowed to do this.
        public static let forbidden = Code(.forbidden)
        /// 404: no such resource.
        public static let notFound = Code(.notFound)
        /// 429: too many requests; see ``CourierError/retryAfter``.
        public static let rateLimited = Code(.rateLimited)
        /// Another 4xx status.
        public static let clientError = Code(.clientError)
        /// A 5xx status.
        public static let serverError = Code(.serverError)
        /// The body did not decode as the expected type; see ``CourierError/codingPath``.
        public static let decodingFailed = Code(.decodingFailed)
        /// The body was larger than the allowed maximum, or a compressed body inflated past
        /// its ratio limit (``RequestOptions/maxDecompressionRatio``).
        public static let responseTooLarge = Code(.responseTooLarge)
        /// The response's `Content-Encoding` could not be undone: the body is not in the coding
        /// it claims, is cut short, or has several codings stacked. Nothing of the body reaches
        /// the caller's decoder or the cache. (A coding Courier does not know is not an error:
        /// the body arrives as it came, `Content-Encoding` included; a typed call that then
        /// cannot decode it fails with this code, naming the coding, not with ``decodingFailed``.)
        public static let contentDecodingFailed = Code(.contentDecodingFailed)
        /// A write could not be stored in the offline queue (or outbox): its storage failed (a
        /// database that is down or restarting, a full disk); ``CourierError/underlying`` is the
        /// storage's error. The write was neither sent nor queued: try again later.
        public static let storageFailed = Code(.storageFailed)
        /// A file of a transfer could not be read or written: missing, not permitted, or the
        /// disk is full; ``CourierError/underlying`` is the `POSIXError`.
        public static let fileSystem = Code(.fileSystem)
        /// The request may only be answered from the cache (``CachePolicy/cacheOnly``), and
        /// nothing usable is stored for it. No request was sent.
        public static let notCached = Code(.notCached)
        /// The server kept redirecting past ``RedirectPolicy/maxRedirects`` hops (a redirect
        /// loop, most likely); ``CourierError/status`` is the last redirect's.
        public static let tooManyRedirects = Code(.tooManyRedirects)
        /// The server answered with a redirect the client does not follow: one that would carry
        /// the request's body to another origin, go from https to http, or resend a single-use
        /// body; or any redirect under ``RedirectPolicy/none``. ``CourierError/redirectLocation``
        /// says where it pointed; nothing was sent there.
        public static let redirectNotFollowed = Code(.redirectNotFollowed)
        /// A write to the same URL waits in the offline queue and could not be delivered first;
        /// this one, which is not queueable, was not sent, so that it cannot overtake it. Send
        /// it again once the queue has delivered (``OfflineQueue/pending()`` is empty for the URL).
        public static let queuedWriteAhead = Code(.queuedWriteAhead)

        /// Whether this is a failure to reach the server or to get its full answer.
        public var isTransportFailure: Bool {
            [.offline, .timedOut, .cannotConnect, .connectionLost, .cancelled, .transportFailed, .tlsFailure].contains(kind)
        }

        /// The code for a status that is not a success.
        /// - Parameter status: A 3xx, 4xx or 5xx status.
        /// - Returns: The matching code.
        public static func forStatus(_ status: HTTPResponse.Status) -> Code {
            switch status.code {
            case 300...399: return .redirectNotFollowed
            case 401: return .unauthorized
            case 403: return .forbidden
            case 404: return .notFound
            case 429: return .rateLimited
            case 500...599: return .serverError
            default: return .clientError
            }
        }
    }
}
