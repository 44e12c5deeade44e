import Courier
import CourierWebSocket
import Foundation
import NIOCore
import NIOPosix
import Testing

@Suite("Opening a WebSocket against a server that never answers")
struct WebSocketOpeningTests {
    /// A loopback server, on a port it picked, that accepts connections, reads what comes and
    /// never writes a byte.
    private func withSilentServer<T>(_ body: (Int) async throws -> T) async throws -> T {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0)
            .get()
        do {
            let port = try #require(channel.localAddress?.port)
            let result = try await body(port)
            try await channel.close()
            return result
        } catch {
            try? await channel.close()
            throw error
        }
    }

    // The time limit turns a regression (a wait with no end) into a failure instead of a hung run.
    @Test(.timeLimit(.minutes(1))) func aServerThatAcceptsAndSaysNothingIsGivenUpOnAfterTheOpeningTimeout() async throws {
        try await withSilentServer { port in
            let engine = WSClientEngine(openingTimeout: .milliseconds(200))
            let handshake = WebSocketHandshake(url: try #require(URL(string: "ws://127.0.0.1:\(port)/ws")), headers: [:])
            let options = WebSocketEngineOptions(maxMessageBytes: 1 << 20, maxFrameBytes: 1 << 16, heartbeat: nil, closeTimeout: .seconds(1))
            let error = await #expect(throws: CourierError.self) {
                _ = try await engine.run(handshake, options: options, onOpen: { _ in }, onMessage: { _ in })
            }
            #expect(error?.code == .cannotConnect)
        }
    }
}
