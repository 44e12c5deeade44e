import NIOCore
import NIOHTTP2

/// Keeps a stream's error to its stream on the reference server's HTTP/2 connections.
///
/// A stream error concerns that stream alone (RFC 9113, section 5.4.2), and NIOHTTP2 has
/// already reset the stream when it reports one; Hummingbird's HTTP/2 connection manager,
/// though, closes the whole connection on any error it sees, and the streams the server was
/// still answering die with it. The commonest case is a drain: a `HEADERS` frame for a stream
/// the client opened before it read the server's `GOAWAY` arrives after it, and NIOHTTP2
/// refuses that stream. This handler sits just behind `NIOHTTP2Handler` and stops stream
/// errors there; connection errors pass on.
final class StreamErrorContainment: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTP2Frame

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is NIOHTTP2Errors.StreamError else {
            context.fireErrorCaught(error)
            return
        }
    }

    /// Puts the handler behind an HTTP/2 connection's `NIOHTTP2Handler`; on the connection's loop.
    static func install(on channel: any Channel) throws {
        let pipeline = channel.pipeline.syncOperations
        try pipeline.addHandler(StreamErrorContainment(), position: .after(try pipeline.handler(type: NIOHTTP2Handler.self)))
    }
}
