package import AsyncHTTPClient
import NIOCore
import NIOHTTP2

/// Tells the streams a server's `GOAWAY` left unprocessed from streams the server reset.
///
/// When a server drains an HTTP/2 connection it sends `GOAWAY` naming the last stream it will
/// process; every stream the client opened above it was not processed and never will be
/// (RFC 9113, section 6.8). NIOHTTP2 closes those streams with `CANCEL`, the code a server's own
/// reset of a stream it may have begun also carries, so the error alone cannot say which it was.
/// This handler sits on each HTTP/2 connection just behind `NIOHTTP2Handler`: it remembers the
/// lowest last stream of the `GOAWAY`s it sees, and a stream above it closed with `CANCEL` is
/// passed on as closed with `REFUSED_STREAM`, the code RFC 9113 (section 8.7) gives a stream
/// closed before any processing, which is what the server's `GOAWAY` said of it. The frames
/// themselves pass untouched.
///
/// NIOHTTP2 passes a `GOAWAY` frame on before the closures it causes, so the last stream is
/// known by the time they arrive. Event-loop confined, as every channel handler.
final class GoAwayStreamClassifier: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTP2Frame
    typealias InboundOut = HTTP2Frame

    /// The lowest last stream id among the `GOAWAY`s received; `nil` before the first.
    private(set) var lastProcessedStream: HTTP2StreamID?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .goAway(let lastStreamID, _, _) = unwrapInboundIn(data).payload {
            lastProcessedStream = min(lastProcessedStream ?? lastStreamID, lastStreamID)
        }
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let closed = event as? StreamClosedEvent, let reclassified = reclassify(closed) else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        context.fireUserInboundEventTriggered(reclassified)
    }

    /// The closure as the stream should see it: `REFUSED_STREAM` for a stream the `GOAWAY`
    /// left unprocessed; `nil` to pass the event on as it is.
    func reclassify(_ closed: StreamClosedEvent) -> StreamClosedEvent? {
        guard closed.reason == .cancel, let last = lastProcessedStream, closed.streamID > last else { return nil }
        return StreamClosedEvent(streamID: closed.streamID, reason: .refusedStream)
    }

    /// Puts a classifier behind the connection's `NIOHTTP2Handler`; for
    /// `http2ConnectionDebugInitializer`, which AsyncHTTPClient calls before it opens a stream.
    static func install(on channel: any Channel) -> EventLoopFuture<Void> {
        @Sendable func add() throws {
            let pipeline = channel.pipeline.syncOperations
            let http2 = try pipeline.handler(type: NIOHTTP2Handler.self)
            try pipeline.addHandler(GoAwayStreamClassifier(), position: .after(http2))
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
            let installed = GoAwayStreamClassifier.install(on: channel)
            guard let previous else { return installed }
            return installed.flatMap { previous(channel) }
        }
    }
}

