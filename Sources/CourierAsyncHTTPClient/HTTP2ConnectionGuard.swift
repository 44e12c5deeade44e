package import AsyncHTTPClient
import NIOCore
import NIOHTTP2

/// Watches each HTTP/2 connection for what AsyncHTTPClient's errors cannot show: which
/// streams a server's `GOAWAY` left unprocessed, and a connection NIOHTTP2 found broken.
///
/// **A broken connection closes.** When NIOHTTP2 finds a connection error in what the server
/// sent (a header block past the size the client announced, a flood of frames, a frame that
/// breaks the protocol), it sends `GOAWAY` and reports the error, but leaves the connection
/// open, and AsyncHTTPClient does not close it either: with a server that never closes its
/// side, the calls on it would wait for their deadline. This handler closes it, so that they
/// end at once as lost connections.
///
/// **Streams a `GOAWAY` left unprocessed.**
/// When a server drains an HTTP/2 connection it sends `GOAWAY` naming the last stream it will
/// process; every stream the client opened above it was not processed and never will be
/// (RFC 9113, section 6.8). NIOHTTP2 closes those streams with `CANCEL`, the code a server's own
/// reset of a stream it may have begun also carries, so the error alone cannot say which it was.
/// This handler sits on each HTTP/2 connection just behind `NIOHTTP2Handler`: it remembers the
/// lowest last stream of the `GOAWAY`s it sees, and a stream above it closed with `CANCEL` is
/// passed on as closed with `REFUSED_STREAM`, the code RFC 9113 (section 8.7) gives a stream
/// closed before any processing, which is what the server's `GOAWAY` said of it, unless the
/// server had begun to answer it (a `HEADERS` frame came on it): a server that answers a stream
/// processed it, whatever its `GOAWAY` says. The frames themselves pass untouched.
///
/// NIOHTTP2 passes a `GOAWAY` frame on before the closures it causes, so the last stream is
/// known by the time they arrive. Event-loop confined, as every channel handler.
final class HTTP2ConnectionGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTP2Frame
    typealias InboundOut = HTTP2Frame

    /// The lowest last stream id among the `GOAWAY`s received; `nil` before the first.
    private(set) var lastProcessedStream: HTTP2StreamID?
    /// The open streams the server has begun to answer.
    private var answered: Set<HTTP2StreamID> = []

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.payload {
        case .headers:
            answered.insert(frame.streamID)
        case .goAway(let lastStreamID, _, _):
            lastProcessedStream = min(lastProcessedStream ?? lastStreamID, lastStreamID)
        default:
            break
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.fireErrorCaught(error)
        if error is any NIOHTTP2Error, !(error is NIOHTTP2Errors.StreamError) {
            context.close(promise: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let closed = event as? StreamClosedEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        let wasAnswered = answered.remove(closed.streamID) != nil
        context.fireUserInboundEventTriggered(reclassify(closed, answered: wasAnswered) ?? closed)
    }

    /// The closure as the stream should see it: `REFUSED_STREAM` for a stream the `GOAWAY`
    /// left unprocessed; `nil` to pass the event on as it is.
    /// - Parameters:
    ///   - closed: The closure NIOHTTP2 reported.
    ///   - answered: Whether the server had begun to answer the stream.
    func reclassify(_ closed: StreamClosedEvent, answered: Bool) -> StreamClosedEvent? {
        guard !answered, closed.reason == .cancel, let last = lastProcessedStream, closed.streamID > last else { return nil }
        return StreamClosedEvent(streamID: closed.streamID, reason: .refusedStream)
    }

    /// Puts a guard behind the connection's `NIOHTTP2Handler`; for
    /// `http2ConnectionDebugInitializer`, which AsyncHTTPClient calls before it opens a stream.
    static func install(on channel: any Channel) -> EventLoopFuture<Void> {
        @Sendable func add() throws {
            let pipeline = channel.pipeline.syncOperations
            let http2 = try pipeline.handler(type: NIOHTTP2Handler.self)
            try pipeline.addHandler(HTTP2ConnectionGuard(), position: .after(http2))
        }
        if channel.eventLoop.inEventLoop {
            return channel.eventLoop.makeCompletedFuture { try add() }
        }
        return channel.eventLoop.submit { try add() }
    }
}

extension HTTPClient.Configuration {
    /// Makes HTTP/2 streams a server's `GOAWAY` left unprocessed fail as never processed, so
    /// that Courier sends them again whatever their method (a POST without an idempotency key
    /// included), instead of as a reset that may have followed processing.
    ///
    /// ``AsyncHTTPClientTransport`` calls this for every client it makes, after
    /// ``applyTLSPolicy(_:)``; it keeps the `http2ConnectionDebugInitializer` already set (a
    /// pin check) and runs it after its own. Call it once per configuration.
    package mutating func classifyStreamsAboveGoAway() {
        let previous = http2ConnectionDebugInitializer
        http2ConnectionDebugInitializer = { channel in
            let installed = HTTP2ConnectionGuard.install(on: channel)
            guard let previous else { return installed }
            return installed.flatMap { previous(channel) }
        }
    }
}

