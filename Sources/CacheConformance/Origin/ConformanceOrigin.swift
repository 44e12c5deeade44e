public import Foundation
import HummingbirdCore
public import Logging
import NIOCore
import NIOPosix
import Synchronization

/// An origin server speaking the HTTP cache test suite's protocol, in-process on loopback.
///
/// ```swift
/// let origin = ConformanceOrigin()
/// let url = try await origin.start()   // http://127.0.0.1:54321
/// // PUT /config/<uuid>, then /test/<uuid> with Req-Num, then GET /state/<uuid>
/// await origin.stop()
/// ```
///
/// For each `/test/<uuid>` request it picks the step named by the `Req-Num` header, adds
/// `Server-Request-Count`, `Client-Request-Count`, `Server-Now`, `Server-Base-Url` and
/// `Request-Numbers`, then the step's headers with dates rendered, a `Date` and a
/// `Content-Type: text/plain` when the step sets none, and the body (the uuid by default). A
/// step that expects validation is answered 304 when the conditional header matches the
/// previous step's validator exactly, 999 otherwise.
///
/// Framing is HummingbirdCore's (NIO's HTTP/1 encoder): a step's `Transfer-Encoding` is sent
/// as `chunked`, and `Content-Length` is left off 204 and 304 responses. A step that declares
/// `Content-Length` gets a body cut to that length.
///
/// `Sendable` without `@unchecked`: the running server sits in a `Mutex`, the ledger of
/// configurations and observations behind a `Mutex` of its own.
public final class ConformanceOrigin: Sendable {
    private struct Running: Sendable {
        var server: Server<HTTP1Channel>
        var task: Task<Void, any Error>
        var url: URL
    }

    /// Why ``start()`` failed.
    public struct StartError: Error, CustomStringConvertible {
        /// A description of the failure.
        public let description: String
    }

    private let host: String
    private let port: Int
    private let logger: Logger
    private let ledger = OriginLedger()
    private let running = Mutex<Running?>(nil)
    /// The tests' own times, when a runner keeps them (see ``VirtualTimeline``); the wall
    /// clock for the rest.
    private let timeline: VirtualTimeline?

    /// Makes an origin; it does not listen until ``start()``.
    /// - Parameters:
    ///   - host: The address to bind (loopback by default).
    ///   - port: The port; 0 picks a free one.
    ///   - logger: Where the server logs (nothing below `error` by default).
    public convenience init(host: String = "127.0.0.1", port: Int = 0, logger: Logger? = nil) {
        self.init(host: host, port: port, logger: logger, timeline: nil)
    }

    /// Makes an origin that answers the tests a timeline keeps on their own times.
    init(host: String = "127.0.0.1", port: Int = 0, logger: Logger? = nil, timeline: VirtualTimeline?) {
        self.timeline = timeline
        self.host = host
        self.port = port
        self.logger = logger ?? {
            var quiet = Logger(label: "courier.conformance.origin")
            quiet.logLevel = .error
            return quiet
        }()
    }

    /// The base URL while listening, such as `http://127.0.0.1:54321`.
    public var baseURL: URL? {
        running.withLock { $0?.url }
    }

    /// Binds and starts serving; returns once the socket accepts connections. Once it has
    /// returned, calling it again returns the same URL until ``stop()``.
    /// - Returns: `http://HOST:PORT` with the bound port.
    /// - Throws: The bind error, or ``StartError``.
    @discardableResult
    public func start() async throws -> URL {
        if let url = baseURL { return url }
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let responder = OriginResponder(ledger: ledger, timeline: timeline)
        let server = Server(
            childChannelSetup: HTTP1Channel(responder: { request, writer, channel in
                try await responder.respond(to: request, writer: writer, channel: channel)
            }),
            configuration: ServerConfiguration(address: .hostname(host, port: port)),
            onServerRunning: { channel in
                if let port = channel.localAddress?.port { portContinuation.yield(port) }
                portContinuation.finish()
            },
            eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
            logger: logger
        )
        let task = Task {
            defer { portContinuation.finish() }
            try await server.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let boundPort = await iterator.next() else {
            if case .failure(let error) = await task.result { throw error }
            throw StartError(description: "the origin stopped before it was listening")
        }
        let reachableHost = host.contains(":") ? "[\(host)]" : host
        guard let url = URL(string: "http://\(reachableHost):\(boundPort)") else {
            try? await server.shutdownGracefully()
            throw StartError(description: "cannot form a URL from \(host) and port \(boundPort)")
        }
        running.withLock { $0 = Running(server: server, task: task, url: url) }
        return url
    }

    /// Stops listening, lets open connections finish, and waits for the server to end.
    /// Does nothing when it is not running.
    public func stop() async {
        guard let current = running.withLock({ state -> Running? in
            defer { state = nil }
            return state
        }) else { return }
        try? await current.server.shutdownGracefully()
        _ = await current.task.result
    }
}
