import Foundation
import NIOCore
import NIOPosix

/// A loopback origin that answers each request with bytes fixed per path, written as they are
/// (no HTTP library between them and the socket), then closes the connection: how a client
/// is shown an odd or broken answer that a well-behaved server could not send.
///
/// Binds `127.0.0.1:0`; ``stop()`` closes it and every connection.
final class RawAnswerServer: Sendable {
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    /// `http://127.0.0.1:PORT`.
    let url: URL

    /// - Parameter answers: The bytes to answer with, by request path (the query ignored);
    ///   any other path gets a bare 404.
    init(answers: [String: [UInt8]]) async throws {
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            channel = try await ServerBootstrap(group: group)
                .childChannelInitializer { channel in
                    // Added on the channel's loop, which then alone touches the handler's state.
                    channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Answer(answers: answers)) }
                }
                .bind(host: "127.0.0.1", port: 0)
                .get()
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
        url = URL(string: "http://127.0.0.1:\(channel.localAddress?.port ?? 0)")!
    }

    func stop() async {
        try? await channel.close()
        try? await group.shutdownGracefully()
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
    let server = try await RawAnswerServer(answers: answers)
    let result: T
    do {
        result = try await body(server)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
    return result
}
