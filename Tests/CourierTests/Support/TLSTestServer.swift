import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL
import Synchronization

/// An HTTPS server on `127.0.0.1` for the TLS tests: `GET /ping` answers `{"ok":true}`.
///
/// It counts the TCP connections it accepts (before the TLS handshake) and closes, and the
/// requests it answers, so a test can tell "never connected", "connected but sent nothing"
/// and "sent", and that a refused connection is not left open.
/// `Sendable` without `@unchecked`: the counts sit in a `Mutex` and an ``EventCounter``.
final class TLSTestServer: Sendable {
    private struct Counts {
        var connections = 0
        var requests = 0
    }

    private let counts = Mutex(Counts())
    private let closes = EventCounter()

    /// The TCP connections accepted so far.
    var connectionCount: Int { counts.withLock { $0.connections } }
    /// The TCP connections closed so far, by either side.
    var closedConnectionCount: Int { closes.count }
    /// The requests answered so far.
    var requestCount: Int { counts.withLock { $0.requests } }

    /// The server stopped before it listened.
    struct StartFailure: Error {}

    fileprivate func connectionAccepted() { counts.withLock { $0.connections += 1 } }
    fileprivate func connectionClosed() { closes.record() }
    fileprivate func requestAnswered() { counts.withLock { $0.requests += 1 } }

    /// Waits until `count` connections have closed, or `timeout` has passed.
    /// - Returns: Whether they closed in time.
    func waitForClosedConnections(_ count: Int, timeout: Duration = .seconds(10)) async throws -> Bool {
        await closes.waitUntil(atLeast: count, within: timeout)
    }

    /// Runs `body` with a server listening on an ephemeral loopback port, stopped afterwards.
    /// - Parameters:
    ///   - tlsConfiguration: The server's TLS configuration.
    ///   - body: Receives the server and its base URL, `https://127.0.0.1:PORT`.
    static func withRunning<T: Sendable>(
        tlsConfiguration: TLSConfiguration,
        _ body: (TLSTestServer, URL) async throws -> T
    ) async throws -> T {
        let server = TLSTestServer()
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let router = Router()
        router.get("ping") { _, _ -> Response in
            server.requestAnswered()
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: #"{"ok":true}"#)))
        }
        var logger = Logger(label: "courier.tls-test-server")
        logger.logLevel = .critical
        let application = Application(
            router: router,
            server: HTTPServerBuilder { responder in
                ConnectionCountingChannel(
                    base: try TLSChannel(HTTP1Channel(responder: responder), tlsConfiguration: tlsConfiguration),
                    server: server
                )
            },
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                if let port = channel.localAddress?.port { portContinuation.yield(port) }
                portContinuation.finish()
            },
            logger: logger
        )
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { portContinuation.finish() }
                try await application.run()
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), let url = URL(string: "https://127.0.0.1:\(port)") else {
                try await group.waitForAll()
                throw StartFailure()
            }
            defer { group.cancelAll() }
            return try await body(server, url)
        }
    }
}

/// Wraps a server child channel and counts the connections it is given and their closes.
private struct ConnectionCountingChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base
    let server: TLSTestServer

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        server.connectionAccepted()
        channel.closeFuture.whenComplete { [server] _ in server.connectionClosed() }
        return base.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
