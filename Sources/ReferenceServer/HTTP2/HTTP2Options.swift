/// How the reference server speaks HTTP/2 over TLS (``ReferenceServerConfiguration/http2``).
///
/// Connections negotiate `h2` or `http/1.1` by ALPN. On HTTP/2 the server allows 100 streams at
/// once per connection (NIOHTTP2's default `SETTINGS_MAX_CONCURRENT_STREAMS`), serves
/// server-sent events as streamed responses, and applies the injected faults per stream:
/// ``Fault/refuseStream`` resets the stream with `REFUSED_STREAM`, ``Fault/dropConnection``
/// closes the whole connection, and a body cut (``BodyFaultInjector``) resets the stream with
/// `CANCEL` after part of the answer. WebSockets need HTTP/1.1: a client that wants one
/// negotiates `http/1.1` (RFC 8441's WebSockets over HTTP/2 are not served).
public struct HTTP2Options: Sendable, Hashable {
    /// After how many requests a connection is drained with a `GOAWAY`, as nginx's
    /// `keepalive_requests` does (1,000 by default there); `nil` (the default) never drains.
    public var goAwayAfterRequests: Int?

    /// Makes options.
    /// - Parameter goAwayAfterRequests: Requests per connection before a `GOAWAY`; `nil` for never.
    public init(goAwayAfterRequests: Int? = nil) {
        self.goAwayAfterRequests = goAwayAfterRequests
    }
}
