public import Courier
#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
// URLSession and URLSessionConfiguration, used in public declarations, live in Foundation here.
public import Foundation
#endif
public import HTTPTypes
#if canImport(Security)
import Security
#endif

/// A `Transport` on `URLSession`: the default engine on Apple platforms.
///
/// The transport makes its own session (``init(configuration:)``), or uses one you inject
/// (``init(session:)``), so tests can register `URLProtocol` classes and apps can share their
/// configuration.
///
/// ## Bodies
/// A response body of known length up to ``eagerBodyLimit`` is gathered before
/// ``send(_:body:context:)`` returns. Any other body streams: the returned
/// `HTTPBody` yields chunks as URLSession delivers them, so a download to a file
/// keeps memory flat and its progress moves as bytes arrive. On Apple platforms a reader that
/// falls more than 1 MiB behind suspends the task until it catches up; swift-corelibs-foundation
/// traps when a running task is suspended, so on Linux the unread chunks are held. A body
/// released before it was read to the end cancels its task. The call's
/// `RequestOptions.maxResponseBytes` applies as bytes arrive (a `Content-Length`
/// past it is refused before the body is read), failing with
/// `CourierError.Code.responseTooLarge` with at most that many bytes held. On Linux
/// this needs the transport's own session: swift-corelibs-foundation gives data callbacks
/// only to a session's delegate, so with an injected session there the body is read whole
/// before the limit is checked.
///
/// A file body (`RequestBody.file(_:contentType:chunkSize:)`) is read from disk as it is
/// sent, never held whole, with progress from URLSession's `didSendBodyData` (with an injected
/// session on Linux, which gets no delegate calls, progress comes all at once at the end). On
/// Apple platforms an upload task sends it from the file. On Linux the request carries it as a
/// stream of the file with its `Content-Length`: swift-corelibs-foundation's upload task from
/// a file looks the file's attributes up again for every chunk once a delegate follows its
/// progress, and feeds libcurl through a reader that pauses and resumes the transfer, which
/// made a 256 MB upload run at a quarter of the stream's rate or less (`courier bench --only
/// transfer`: `raw_urlsession`, an upload task without a delegate, beside
/// `raw_urlsession_stream`). The framing that takes is explained in `FileBodyStream`. Other
/// streamed request bodies (a multipart form, a body of your own chunks) are gathered in
/// memory before the task starts: on Linux, swift-corelibs-foundation ends a stream body at
/// the first moment the stream has no bytes ready, so only a file can be streamed there. Use
/// `AsyncHTTPClientTransport` where those must stream.
///
/// The per-attempt deadline bounds the whole exchange, body included (URLSession's own
/// `timeoutInterval` is only an idle timeout): one timer per transport, armed for the
/// earliest deadline, cancels a task whose deadline passed, with no task or timer per
/// request. Cancelling the calling task, or the task reading the body, cancels the data task.
///
/// On Linux, swift-corelibs-foundation's URLSession is slower than AsyncHTTPClient and has
/// crashed under heavy concurrency; prefer `AsyncHTTPClientTransport` there. More of its
/// limits, which the transport cannot work around:
/// - A chunked response with trailer fields stops the process: swift-corelibs-foundation
///   takes the trailer for a new head and fails a `fatalError` ("Transfer completed, but
///   there's no response"), raw URLSession as much as Courier.
/// - A URL whose host is an IPv6 literal (`http://[::1]:8080/`) fails with `invalidRequest`:
///   swift-corelibs-foundation refuses it as a bad URL (`NSURLErrorBadURL`), raw URLSession too.
/// - libcurl reads some malformed heads that AsyncHTTPClient refuses with
///   `invalidResponse`: two `Content-Length` fields, `Content-Length` beside
///   `Transfer-Encoding: chunked`, folded header lines. One AsyncHTTPClient reads, a status
///   line that ends at its code with no space after it (`HTTP/1.1 200`), fails here with
///   `invalidResponse`.
///
/// Other odd answers are read as on AsyncHTTPClient: an informational head (103 Early Hints)
/// is passed over for the final one, and a head that cannot be read (not HTTP, a status past
/// 999, a header line without a colon or with a NUL byte) fails with `invalidResponse`.
///
/// On every platform, a field a response repeats comes back as one, its values joined with
/// `, `: URLSession keeps the fields in a dictionary. Two `Set-Cookie` fields then read as
/// one, which cannot be split again where an `Expires` date holds a comma;
/// AsyncHTTPClient keeps them apart.
///
/// ## Delegate calls on Linux
/// swift-corelibs-foundation hands each delegate call to the session's delegate
/// `OperationQueue`, which runs it on another thread: three operations and three hand-overs
/// between threads for a small JSON answer, one per chunk of a large body. A session the
/// transport makes on Linux runs them instead where swift-corelibs-foundation submits them,
/// on the session's serial work queue, in the same order: against `courier serve` in another
/// process, that took the client's CPU per request at 32 in flight from 320 to 284 µs, and
/// made sequential requests as fast as raw URLSession's `data(for:)`, which
/// swift-corelibs-foundation completes that way itself. The transport's delegates never wait
/// on that queue. An injected session keeps its own delegate queue.
///
/// They must not wait: swift-corelibs-foundation runs the work of every session in the process
/// on one serial queue, so a delegate call that waits stalls every session's tasks (making a
/// task on another session waits too). For the same reason, a session of its own per download
/// would not let a slow file writer hold libcurl back on Linux: that is why the unread chunks
/// of a body there are held rather than waited on (see "Bodies").
///
/// URLSession does not follow redirects here: each task's delegate declines them, so the 3xx
/// comes back and the client's `RedirectPolicy` applies, as on every transport
/// (credentials and bodies stay with their origin, no https to http, the hop limit). This
/// holds for an injected session too.
///
/// ## HTTP authentication
/// A 401 that asks for HTTP authentication (`WWW-Authenticate: Basic`, for
/// instance) comes back as an answer, as on every transport: Courier's `AuthStage`, not
/// URLSession, decides what to send. On Linux, swift-corelibs-foundation holds such a task on
/// an authentication challenge it never completes by itself (the call would wait for its
/// deadline and fail with `timedOut`); the transport's delegates hand the response on and end
/// the task instead. With an injected session on Linux the head comes back without its body,
/// which swift-corelibs-foundation does not hand to a cancelled task's completion handler.
///
/// ## Caching
/// Courier's cache (`ClientConfiguration.cache`) is the HTTP cache: RFC 9111's rules, kept
/// apart for each signed-in user. A `URLCache` below it would answer some requests before
/// they reach the network, with none of that: a response stored for one user could be
/// handed to the next, and a revalidation Courier sends could come back as the stored 200.
/// So every request this transport makes ignores locally cached data
/// (`URLRequest.CachePolicy.reloadIgnoringLocalCacheData`), and a session the transport
/// makes has no `URLCache` at all, which also spares each request its cache lookup. An
/// injected session keeps its own `URLCache`, which may still store responses (nothing is
/// read from it).
///
/// ## Cookies
/// The transport neither stores nor sends cookies by itself, as `AsyncHTTPClientTransport`
/// does not: a `Cookie` field the request carries goes out as it is, and a response's
/// `Set-Cookie` comes back in its head for the caller. URLSession would otherwise keep every
/// cookie a server sets (in memory, for an ephemeral session) and add it to later requests to
/// that server, outside Courier's rules: after one account signs out and another signs in on
/// the same client, the first one's session cookie would go out with the second one's
/// requests. So a session the transport makes has no cookie storage, and every request sets
/// `httpShouldHandleCookies` to `false`, for an injected session. swift-corelibs-foundation
/// ignores that request setting: on Linux, an injected session keeps and sends cookies as its
/// configuration says (give it `httpCookieStorage = nil` and `httpShouldSetCookies = false`
/// for the transport's behaviour).
///
/// ## TLS
/// ``init(configuration:tls:)`` applies a `TLSPolicy`. On Apple platforms the
/// transport makes its session with a delegate that evaluates each server's `SecTrust`
/// against the policy's trust roots and then requires a pinned key somewhere in the validated
/// chain (leaf, intermediate or root); a refusal fails the request with
/// `CourierError.Code.tlsFailure` before any byte of it is sent. The minimum version
/// goes into `tlsMinimumSupportedProtocolVersion`.
///
/// **On Linux, pinning and custom trust roots are not available with URLSession.**
/// swift-corelibs-foundation hands TLS to libcurl and never asks a delegate about server
/// trust, and it offers no setting for the minimum TLS version. There,
/// ``init(configuration:tls:)`` throws `CourierError.Code.invalidRequest` when the
/// policy pins keys, sets trust roots other than the system's, or asks for TLS 1.3; with
/// `TLSPolicy.Version.v1_2` the oldest version accepted is libcurl's own default.
/// Use `AsyncHTTPClientTransport` on Linux for any of these. A session passed to
/// ``init(session:)`` is used as it is, with no policy on any platform.
public final class URLSessionTransport: Transport {
    /// The session that runs the data tasks.
    ///
    /// On Linux, a session the transport made runs its delegate calls and completion handlers
    /// on swift-corelibs-foundation's own work queue, where they cost least (see "Delegate
    /// calls on Linux" above). A task you make on it yourself must not, from its completion
    /// handler, make another task on this session or call `cancel()`, `suspend()` or
    /// `resume()` on one: each waits on that queue. Hop to another queue or task first.
    public let session: URLSession
    /// Where the session's trust evaluator records refusals; `nil` when there is none.
    private let trustFailures: ServerTrustFailureLog?
    /// Declines redirects on every task.
    private let redirects = RedirectRefuser()
    /// Times every task's attempt deadline, on one timer.
    let deadlines = DeadlineTimer()
    /// The delegate of a session the transport made, which routes each task's data; `nil` for
    /// an injected session.
    private let router: SessionDelegate?

    /// Makes a transport on a session you provide, used as it is.
    /// - Parameter session: The session.
    public init(session: URLSession) {
        self.session = session
        self.trustFailures = nil
        self.router = nil
    }

    /// Makes a transport with a session of its own.
    ///
    /// The session keeps no `URLCache` and no cookie storage (see "Caching" and "Cookies"
    /// above): it uses a copy of `configuration` without them; your object is left unchanged.
    /// - Parameter configuration: The session's configuration; ephemeral by default.
    public convenience init(configuration: URLSessionConfiguration = .ephemeral) {
        #if canImport(Security) && canImport(CryptoKit)
        let router = SessionDelegate(trustEvaluator: nil)
        #else
        let router = SessionDelegate()
        #endif
        #if canImport(FoundationNetworking)
        let queue: OperationQueue? = InlineDelegateQueue()
        #else
        let queue: OperationQueue? = nil
        #endif
        let session = URLSession(configuration: Self.withoutStores(configuration), delegate: router, delegateQueue: queue)
        self.init(session: session, trustFailures: nil, router: router)
    }

    /// A copy of `configuration` with no `URLCache`, whose requests ignore any cached data,
    /// and no cookie storage, which neither sets nor accepts cookies: what a session the
    /// transport makes runs on (the bench's `raw_urlsession_no_stores` uses it too).
    package static func withoutStores(_ configuration: URLSessionConfiguration) -> URLSessionConfiguration {
        let copy = (configuration.copy() as? URLSessionConfiguration) ?? configuration
        copy.urlCache = nil
        copy.requestCachePolicy = .reloadIgnoringLocalCacheData
        copy.httpCookieStorage = nil
        copy.httpShouldSetCookies = false
        copy.httpCookieAcceptPolicy = .never
        return copy
    }

    /// Makes a transport with its own session, which enforces a TLS policy.
    ///
    /// On Apple platforms, a policy with pins or custom trust roots gives the session a
    /// delegate that evaluates server trust (see the type's discussion). On Linux such a policy
    /// is refused: see "TLS" above.
    ///
    /// ```swift
    /// let tls = TLSPolicy(minimumVersion: .v1_3, pinnedPublicKeys: [currentKeyPin, backupKeyPin])
    /// let transport = try URLSessionTransport(configuration: .ephemeral, tls: tls)
    /// ```
    /// - Parameters:
    ///   - configuration: The session's configuration. On Apple platforms the session uses a
    ///     copy whose minimum TLS version is the policy's; your object is left unchanged.
    ///   - tls: The TLS policy.
    /// - Throws: A `CourierError` with code `CourierError.Code.invalidRequest`
    ///   when the policy is malformed (see `TLSPolicy.validate()`), or, on Linux, asks
    ///   for pins, custom trust roots or TLS 1.3.
    public convenience init(configuration: URLSessionConfiguration, tls: TLSPolicy) throws {
        try tls.validate()
        #if canImport(Security) && canImport(CryptoKit)
        let sessionConfiguration = (configuration.copy() as? URLSessionConfiguration) ?? configuration
        switch tls.minimumVersion {
        case .v1_2: sessionConfiguration.tlsMinimumSupportedProtocolVersion = .TLSv12
        case .v1_3: sessionConfiguration.tlsMinimumSupportedProtocolVersion = .TLSv13
        }
        guard tls.needsCustomTrustEvaluation else {
            self.init(configuration: sessionConfiguration)
            return
        }
        let failures = ServerTrustFailureLog()
        let evaluator = try ServerTrustEvaluator(policy: tls, failures: failures)
        let router = SessionDelegate(trustEvaluator: evaluator)
        let session = URLSession(configuration: Self.withoutStores(sessionConfiguration), delegate: router, delegateQueue: nil)
        self.init(session: session, trustFailures: failures, router: router)
        #else
        if let unsupported = Self.unsupportedOnThisPlatform(tls) {
            throw CourierError(
                code: .invalidRequest,
                message: "URLSession on this platform cannot enforce \(unsupported); use AsyncHTTPClientTransport"
            )
        }
        self.init(configuration: configuration)
        #endif
    }

    private init(session: URLSession, trustFailures: ServerTrustFailureLog?, router: SessionDelegate?) {
        self.session = session
        self.trustFailures = trustFailures
        self.router = router
    }

    deinit {
        // A session holds its delegate until it is invalidated; one the transport made ends
        // with it (tasks under way finish first). An injected session is the caller's.
        if router != nil { session.finishTasksAndInvalidate() }
    }

    /// What a policy asks for that swift-corelibs-foundation's URLSession cannot do, or `nil`.
    static func unsupportedOnThisPlatform(_ tls: TLSPolicy) -> String? {
        var unsupported: [String] = []
        if tls.pinsPublicKeys { unsupported.append("public key pins") }
        if tls.trustRoots != .system { unsupported.append("custom trust roots") }
        if tls.minimumVersion > .v1_2 { unsupported.append("a minimum of \(tls.minimumVersion)") }
        return unsupported.isEmpty ? nil : unsupported.joined(separator: ", ")
    }

    /// Sends the request with a data task.
    public func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let deadline = context.attemptDeadline
        let (urlRequest, file) = try await Self.makeTaskRequest(request, body: body, deadline: deadline)
        let outcome = try await DataTaskRunner.run(
            urlRequest,
            uploading: file?.uploadTaskFile,
            sentBytes: file?.source.sentBytes,
            in: session,
            router: router,
            limit: context.options.maxResponseBytes,
            deadline: deadline,
            deadlines: deadlines,
            redirects: redirects,
            trustFailures: trustFailures
        )
        return try Self.answer(outcome, method: request.method, decodes: context.options.decodesContentEncoding)
    }

    /// The `URLRequest` for a request and its body, with the file when the body is one. Out of
    /// line, so that `send`'s frame keeps no room for this work.
    @inline(never)
    private static func makeTaskRequest(
        _ request: HTTPRequest,
        body: HTTPBody?,
        deadline: ContinuousClock.Instant?
    ) async throws -> (URLRequest, FileBody?) {
        var urlRequest = try makeURLRequest(request)
        var file: FileBody?
        if let body {
            if let data = body.bufferedData {
                urlRequest.httpBody = data
            } else if let source = body.fileSource {
                try checkUnchanged(source.url, length: body.length)
                var uploadTaskFile: URL? = source.url
                #if canImport(FoundationNetworking)
                if case .known(let length) = body.length {
                    try FileBodyStream.attach(source.url, length: length, to: &urlRequest)
                    uploadTaskFile = nil
                }
                #endif
                file = FileBody(source: source, uploadTaskFile: uploadTaskFile)
            } else {
                urlRequest.httpBody = try await body.collect(upTo: Int.max)
            }
        }
        if let deadline {
            // The transport's timer enforces the deadline exactly. URLSession's idle timeout is
            // set past it: swift-corelibs-foundation truncates `timeoutInterval` to whole
            // seconds, and fails a task at once when that makes it 0.
            urlRequest.timeoutInterval = idleTimeout(forRemaining: ContinuousClock.now.duration(to: deadline))
        }
        return (urlRequest, file)
    }

    /// The head and body a task's outcome makes. Out of line, so that `send`'s frame, which
    /// every request allocates, keeps no room for this work (nor for the errors it may throw).
    @inline(never)
    private static func answer(_ outcome: TaskOutcome, method: HTTPRequest.Method, decodes: Bool) throws -> (HTTPResponse, HTTPBody?) {
        switch outcome {
        case .whole(let data, let urlResponse):
            let (head, body) = try makeResponse(data: data, urlResponse: urlResponse, method: method)
            return (try decodedByEngine(head, decodes: decodes), body)
        case .streaming(let urlResponse, let stream):
            let body = StreamedResponseChunks(stream)
            let (wireHead, _) = try makeResponse(data: Data(), urlResponse: urlResponse, method: method)
            let head = try decodedByEngine(wireHead, decodes: decodes)
            let length = wireHead.headerFields[.contentEncoding] == nil && urlResponse.expectedContentLength >= 0
                ? HTTPBody.Length.known(urlResponse.expectedContentLength)
                : .unknown
            return (head, HTTPBody(body, length: length, iterationBehavior: .single))
        }
    }

    /// `true`: URLSession decodes gzip and deflate bodies itself (brotli too, on Apple
    /// platforms; on Linux, libcurl does the decoding). The transport removes the wire's
    /// `Content-Encoding` and `Content-Length` from the head, as AsyncHTTPClient's does. URLSession decodes out of sight, so the
    /// decompression ratio limit does not apply here; `RequestOptions.maxResponseBytes`
    /// does, to the decoded bytes.
    public var decodesContentEncoding: Bool { true }

    /// The head as the caller sees it: URLSession has decoded the body, so the wire's
    /// `Content-Encoding` and `Content-Length` no longer describe it.
    /// A coding neither knows is left in the head, with the body as it came, as on
    /// AsyncHTTPClient.
    /// - Throws: `CourierError.Code.contentDecodingFailed` for stacked codings.
    /// URLSession decodes whatever `Accept-Encoding` the caller set, so the codings it knows are
    /// removed from the head even for a caller that asked to see them (`decodes` is `false`).
    static func decodedByEngine(_ head: HTTPResponse, decodes: Bool) throws -> HTTPResponse {
        guard head.headerFields.contains(.contentEncoding) else { return head }
        #if canImport(Darwin)
        if head.headerFields[.contentEncoding]?.lowercased() == "br" { return ContentCoding.decodedHead(head) }
        #endif
        let coding: ContentCoding?
        do {
            coding = try ContentCoding.of(head.headerFields)
        } catch where !decodes {
            return head
        }
        return coding == nil ? head : ContentCoding.decodedHead(head)
    }

    /// Throws `CourierError.Code.fileSystem` when a file to upload is gone or no
    /// longer has the length the body was made with: URLSession would send what is there now,
    /// which would not match the request.
    static func checkUnchanged(_ url: URL, length: HTTPBody.Length) throws {
        guard case .known(let expected) = length else { return }
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        let size = (attributes?[.size] as? NSNumber)?.int64Value
        guard size == expected else {
            throw CourierError(
                code: .fileSystem,
                message: "\(url.path) changed since the body was made: \(expected) bytes expected, \(size.map(String.init) ?? "no file") found"
            )
        }
    }

    /// URLSession's idle timeout for an attempt with `remaining` left before its deadline: whole
    /// seconds, at least one past the deadline, so that the transport's timer ends the attempt.
    static func idleTimeout(forRemaining remaining: Duration) -> TimeInterval {
        TimeInterval(max(0, remaining.components.seconds) + 2)
    }

    /// Response bodies of a known length up to this many bytes are read before
    /// ``send(_:body:context:)`` returns; longer ones, and those of unknown length, stream.
    public static let eagerBodyLimit = 64 << 10

    // MARK: - Conversions

    static func makeURLRequest(_ request: HTTPRequest) throws -> URLRequest {
        guard let target = request.absoluteURLString, let url = URL(string: target) else {
            throw CourierError(code: .invalidRequest, message: "the request's target is not a valid URL")
        }
        // Never answered from a URLCache below the client (see "Caching"); no cookie added
        // or kept by an injected session's storage (see "Cookies": Apple platforms honour
        // this, swift-corelibs-foundation does not).
        var urlRequest = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData)
        urlRequest.httpShouldHandleCookies = false
        // GET is every URLRequest's method already; setting it again costs a case-insensitive
        // comparison with each of six method names in swift-corelibs-foundation.
        if request.method != .get { urlRequest.httpMethod = request.method.rawValue }
        urlRequest.allHTTPHeaderFields = headerDictionary(request.headerFields)
        return urlRequest
    }

    /// The fields as `URLRequest` holds them: one entry per name (spelled as its first field
    /// spells it), the values of a repeated name joined as HTTP joins them (`; ` for `Cookie`,
    /// `, ` for the rest). Set in one step, where `addValue` per field would capitalize the
    /// name, search the fields so far without regard to case, and copy them, every time.
    static func headerDictionary(_ fields: HTTPFields) -> [String: String] {
        var headers = [String: String](minimumCapacity: fields.count)
        nextField: for (position, field) in fields.enumerated() {
            var repeated = false
            for (other, candidate) in fields.enumerated() where other != position && candidate.name == field.name {
                // A name seen before had all its values joined when it first came.
                if other < position { continue nextField }
                repeated = true
            }
            headers[field.name.rawName] = repeated ? fields[field.name] ?? field.value : field.value
        }
        return headers
    }

    static func makeResponse(data: Data, urlResponse: URLResponse, method: HTTPRequest.Method) throws -> (HTTPResponse, HTTPBody?) {
        guard let httpResponse = urlResponse as? HTTPURLResponse else {
            throw CourierError(code: .invalidResponse, message: "the response is not an HTTP response")
        }
        let headerFields = httpResponse.allHeaderFields
        var fields = HTTPFields()
        fields.reserveCapacity(headerFields.count)
        for (key, value) in headerFields {
            guard let key = key as? String, let name = ResponseFieldName.named(key) else {
                throw CourierError(code: .invalidResponse, message: "the response has an invalid header name: \(key)")
            }
            // The values are strings; a cast is far cheaper than interpolating `Any`.
            fields.append(HTTPField(name: name, value: value as? String ?? "\(value)"))
        }
        let head = HTTPResponse(status: .init(code: httpResponse.statusCode), headerFields: fields)
        if method == .head || httpResponse.statusCode == 204 || httpResponse.statusCode == 304 {
            return (head, nil)
        }
        return (head, HTTPBody(data))
    }
}
