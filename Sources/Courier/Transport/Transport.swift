public import HTTPTypes

/// The engine that moves one HTTP request over the network.
///
/// A transport is the last link of the chain: it sends an absolute `HTTPRequest`
/// (scheme, authority and path are set) with an optional body, and returns the
/// response head and its body, ideally streamed. Courier ships two:
/// `AsyncHTTPClientTransport` (the default on Linux) and `URLSessionTransport`
/// (the default on Apple platforms). Implement this protocol to plug in another engine,
/// or use `CourierTesting`'s `MockTransport` in tests.
///
/// ## Contract
/// - Honour ``RequestContext/attemptDeadline`` (or ``RequestContext/attemptTimeLeft``, the
///   same bound as a span, for an engine that keeps time on its own clock): past it, throw a
///   ``CourierError`` with code ``CourierError/Code/timedOut``.
/// - Stop promptly when the calling task is cancelled, throwing
///   ``CourierError/Code/cancelled`` or `CancellationError`.
/// - Map engine failures to ``CourierError`` codes (``CourierError/Code/cannotConnect``,
///   ``CourierError/Code/connectionLost``, ``CourierError/Code/offline``,
///   ``CourierError/Code/timedOut``, ``CourierError/Code/invalidResponse``); the client
///   wraps anything else as ``CourierError/Code/transportFailed``.
/// - Do not follow redirects that would change the host while keeping credentials;
///   Courier's redirect policy decides what is followed.
///
/// ## Choosing between a transport and a middleware
/// Write a ``Middleware`` to observe or change requests and responses; write a transport
/// only to change how bytes reach the server.
public protocol Transport: Sendable {
    /// Sends one request and returns the response.
    /// - Parameters:
    ///   - request: The request, with an absolute target.
    ///   - body: The request body, if any.
    ///   - context: Per-call information: deadlines, options, the attempt number.
    /// - Returns: The response head and its body (`nil` when there is none).
    /// - Throws: A ``CourierError`` describing the failure.
    func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext
    ) async throws -> (HTTPResponse, HTTPBody?)

    /// Whether the transport decodes compressed response bodies; `false` unless it says so.
    ///
    /// When it does, the client offers `Accept-Encoding: gzip, deflate`, and the transport
    /// must, for a request whose ``RequestOptions/decodesContentEncoding`` is `true`: return
    /// the body decoded, with `Content-Encoding` and `Content-Length` removed from the head;
    /// apply ``RequestOptions/maxResponseBytes`` to the decoded bytes; fail a body that does
    /// not decode with ``CourierError/Code/contentDecodingFailed``.
    var decodesContentEncoding: Bool { get }
}

extension Transport {
    /// `false`: a transport decodes nothing unless it says so.
    public var decodesContentEncoding: Bool { false }
}
