import Foundation
import NIOCore
import NIOPosix

/// A loopback server that answers every request with a head promising more body than it
/// sends: the head, the first bytes, then silence, with the connection held open. A client
/// reading the body waits for bytes that never come, which is how a deadline that passes
/// mid-body is tested without a timed sleep on either side.
///
/// Binds `127.0.0.1:0`; ``stop()`` closes it and every connection. ``closedConnections``
/// tells when a connection ends, which is how a test sees a client give up on a body.
final class StallingServer: StoppableTestServer {
    /// The bytes sent after the head.
    static let sentBytes = 4 << 10
    /// The `Content-Length` the head declares.
    static let declaredBytes = 1 << 20

    private let listener: LoopbackChannel
    /// `http://127.0.0.1:PORT`.
    var url: URL { listener.url }
    /// One element each time a connection closes (the client's end or the server's).
    let closedConnections: AsyncStream<Void>

    init() async throws {
        let (closedConnections, closed) = AsyncStream.makeStream(of: Void.self)
        self.closedConnections = closedConnections
        listener = try await LoopbackChannel { channel in channel.pipeline.addHandler(Answer(closed: closed)) }
    }

    func stop() async {
        await listener.close()
    }

    /// Writes the head and the first bytes once the request's first bytes arrive; reports the
    /// connection's end.
    private final class Answer: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer

        let closed: AsyncStream<Void>.Continuation

        init(closed: AsyncStream<Void>.Continuation) {
            self.closed = closed
        }

        func channelInactive(context: ChannelHandlerContext) {
            closed.yield()
            context.fireChannelInactive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: \(StallingServer.declaredBytes)\r\n\r\n"
            var buffer = context.channel.allocator.buffer(capacity: head.utf8.count + StallingServer.sentBytes)
            buffer.writeString(head)
            buffer.writeRepeatingByte(0x61, count: StallingServer.sentBytes)
            context.writeAndFlush(NIOAny(buffer), promise: nil)
        }
    }
}

/// Runs `body` with a ``StallingServer``, stopped afterwards whether `body` returned or threw.
func withStallingServer<T>(_ body: (StallingServer) async throws -> T) async throws -> T {
    try await withStopping(try await StallingServer(), body)
}
