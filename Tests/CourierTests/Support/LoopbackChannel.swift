import Foundation
import NIOCore
import NIOPosix

/// A listening NIO channel on `127.0.0.1:0`, with an event loop group of its own: the socket
/// side of the tests' hand-written servers (``StallingServer``, ``RawAnswerServer``).
struct LoopbackChannel: Sendable {
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    /// `http://127.0.0.1:PORT`.
    let url: URL

    /// Binds a port the system picks, setting up each accepted connection with `initializer`.
    init(childChannelInitializer initializer: @escaping @Sendable (any Channel) -> EventLoopFuture<Void>) async throws {
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            channel = try await ServerBootstrap(group: group)
                .childChannelInitializer(initializer)
                .bind(host: "127.0.0.1", port: 0)
                .get()
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
        url = URL(string: "http://127.0.0.1:\(channel.localAddress?.port ?? 0)")!
    }

    /// Closes the listener and every connection.
    func close() async {
        try? await channel.close()
        try? await group.shutdownGracefully()
    }
}

/// A test server that ``withStopping(_:_:)`` stops.
protocol StoppableTestServer: Sendable {
    func stop() async
}

/// Runs `body` with `server`, stopped afterwards whether `body` returned or threw.
func withStopping<Server: StoppableTestServer, T>(_ server: Server, _ body: (Server) async throws -> T) async throws -> T {
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
