import HummingbirdCore
import HummingbirdHTTP2
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP2
import NIOSSL
import NIOTLS

/// The reference server's HTTPS connections when it offers HTTP/2: TLS with ALPN `h2` and
/// `http/1.1`. A connection that negotiates `h2` is served by Hummingbird's `HTTP2Channel`
/// (streams of requests, SSE included: an event stream is a streamed response); one that
/// negotiates `http/1.1`, or nothing, by the same HTTP/1.1 channel as plain HTTPS, WebSocket
/// upgrades included, since a WebSocket cannot ride an HTTP/2 stream here (RFC 8441's extended
/// CONNECT is not implemented).
///
/// Hummingbird's own `HTTP2UpgradeChannel` falls back to a plain HTTP/1.1 channel, with no
/// WebSocket upgrade; this one is the same negotiation with the upgrade kept.
struct ReferenceSecureChannel: ServerChildChannel {
    /// A connection once ALPN has chosen its protocol.
    struct Value: ServerChildChannelValue {
        let negotiated: EventLoopFuture<NIONegotiatedHTTPVersion<HTTP1WebSocketUpgradeChannel.Value, HTTP2Channel.Value>>
        let channel: any Channel
    }

    let sslContext: NIOSSLContext
    let http1: HTTP1WebSocketUpgradeChannel
    let http2: HTTP2Channel

    /// - Parameters:
    ///   - tlsConfiguration: The server's certificate and key; the ALPN protocols are set here.
    ///   - http1: The channel for connections that negotiate HTTP/1.1.
    ///   - http2: The channel for connections that negotiate HTTP/2.
    init(tlsConfiguration: TLSConfiguration, http1: HTTP1WebSocketUpgradeChannel, http2: HTTP2Channel) throws {
        var tls = tlsConfiguration
        tls.applicationProtocols = ["h2", "http/1.1"]
        self.sslContext = try NIOSSLContext(configuration: tls)
        self.http1 = http1
        self.http2 = http2
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: sslContext))
            let http1 = self.http1
            let http2 = self.http2
            let negotiation = NIOTypedApplicationProtocolNegotiationHandler<NIONegotiatedHTTPVersion<HTTP1WebSocketUpgradeChannel.Value, HTTP2Channel.Value>> { result in
                switch result {
                case .negotiated("h2"):
                    return http2.setup(channel: channel, logger: logger).flatMapThrowing { connection in
                        try StreamErrorContainment.install(on: channel)
                        return .http2(connection)
                    }
                case .negotiated("http/1.1"), .fallback:
                    return http1.setup(channel: channel, logger: logger).map { .http1_1($0) }
                case .negotiated:
                    return channel.close().flatMapThrowing { throw NIOHTTP2Errors.invalidALPNToken() }
                }
            }
            try channel.pipeline.syncOperations.addHandler(negotiation)
            return Value(negotiated: negotiation.protocolNegotiationResult, channel: channel)
        }
    }

    func handle(value: Value, logger: Logger) async {
        do {
            switch try await value.negotiated.get() {
            case .http1_1(let connection):
                await http1.handle(value: connection, logger: logger)
            case .http2(let connection):
                await http2.handle(value: connection, logger: logger)
            }
        } catch {
            logger.debug("TLS or protocol negotiation failed: \(error)")
        }
    }
}
