import Foundation
import NIOCore
import NIOPosix

/// A loopback origin that answers each request with bytes fixed per path, written as they are
/// (no HTTP library between them and the socket), then closes the connection: how a client
/// is shown an odd or broken answer that a well-behaved server could not send.
///
/// Binds `127.0.0.1:0`; ``stop()`` closes it and every connection.
final class RawAnswerServer: StoppableTestServer {
    private let listener: LoopbackChannel
    /// `http://127.0.0.1:PORT`.
    var url: URL { listener.url }

    /// - Parameter answers: The bytes to answer with, by request path (the query ignored);
    ///   any other path gets a bare 404.
    init(answers: [String: [UInt8]]) async throws {
        listener = try await LoopbackChannel { channel in
            // Added on the channel's loop, which then alone touches the handler's state.
            channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Answer(answers: answers)) }
        }
    }

    func stop() async {
        await listener.close()
    }

    /// Reads the request head, writes the path's answer, and closes once it is written.
    private final class Answer: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer

        let answers: [String: [UInt8]]
        var received: [UInt8] = []
        var answered = false

        init(answers: [String: [UInt8]]) {
            self.answers = answers
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !answered else { return }
            received += Array(buffer: unwrapInboundIn(data))
            let text = String(decoding: received, as: UTF8.self)
            guard text.contains("\r\n\r\n") else { return }
            answered = true
            let target = text.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
            let path = String(target.split(separator: "?", maxSplits: 1).first ?? "/")
            let bytes = answers[path] ?? Array("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n".utf8)
            let channel = context.channel
            context.writeAndFlush(NIOAny(channel.allocator.buffer(bytes: bytes))).whenComplete { _ in channel.close(promise: nil) }
        }
    }
}

/// Runs `body` with a ``RawAnswerServer``, stopped afterwards whether `body` returned or threw.
func withRawAnswerServer<T>(_ answers: [String: [UInt8]], _ body: (RawAnswerServer) async throws -> T) async throws -> T {
    try await withStopping(try await RawAnswerServer(answers: answers), body)
}
