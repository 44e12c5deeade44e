import Foundation
import Hummingbird
import Logging

/// A Hummingbird router served on `127.0.0.1` at a port the system picks, for as long as `body`
/// runs, then stopped: the shared start-up of the tests' small origins.
enum LoopbackApplication {
    /// The server stopped before it listened.
    struct StartFailure: Error {}

    /// Runs `body` with `router` listening on an ephemeral loopback port.
    /// - Parameters:
    ///   - router: What the server answers.
    ///   - label: The (silent) logger's label.
    ///   - body: Receives the base URL, `http://127.0.0.1:PORT`.
    static func withRunning<T: Sendable>(
        _ router: Router<BasicRequestContext>, label: String, _ body: (URL) async throws -> T
    ) async throws -> T {
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: label)
        logger.logLevel = .critical
        let application = Application(
            router: router,
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
            guard let port = await iterator.next(), let url = URL(string: "http://127.0.0.1:\(port)") else {
                try await group.waitForAll()
                throw StartFailure()
            }
            defer { group.cancelAll() }
            return try await body(url)
        }
    }
}
