import Hummingbird
import NIOCore
import NIOHTTP2
import Synchronization

/// Drains each HTTP/2 connection after a number of requests, as busy services do (nginx's
/// `keepalive_requests`): when the `limit`-th request of a connection arrives, the server sends
/// `GOAWAY` naming the highest stream it has begun to handle as the last it will process, and
/// serves those. A request whose stream is above it, arriving later, is refused with
/// `REFUSED_STREAM` and never handled; streams the client opened that never reached a handler
/// are dropped by NIOHTTP2. Either way a client may send them again on a new connection.
/// HTTP/1.1 requests pass untouched.
///
/// `Sendable` without `@unchecked`: the per-connection state sits in a `Mutex`.
final class ConnectionDrainMiddleware: RouterMiddleware, Sendable {
    typealias Context = ReferenceRequestContext

    /// What the server knows of one connection.
    private struct Connection {
        /// Requests that reached this middleware.
        var requests = 0
        /// The highest stream id among them.
        var highestStream = HTTP2StreamID(0)
        /// The last stream the `GOAWAY` promised, once it was sent.
        var lastPromised: HTTP2StreamID?
    }

    /// What to do with a request.
    private enum Decision {
        case serve
        case serveAfterGoAway(lastStream: HTTP2StreamID)
        case refuse
    }

    /// Requests per connection before it drains.
    let limit: Int
    /// State per connection, by the connection's identity; an entry goes when its connection closes.
    private let connections = Mutex<[ObjectIdentifier: Connection]>([:])
    /// How many `GOAWAY`s were sent, for tests and the bench.
    private let sent = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// How many connections were drained.
    var goAwaysSent: Int { sent.load(ordering: .relaxed) }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let stream = await HTTP2Stream.id(of: context.channel), let connection = context.channel.parent else {
            return try await next(request, context)
        }
        let key = ObjectIdentifier(connection)
        let (decision, first) = connections.withLock { connections -> (Decision, Bool) in
            var state = connections[key] ?? Connection()
            let first = state.requests == 0
            defer { connections[key] = state }
            if let promised = state.lastPromised {
                return (stream > promised ? .refuse : .serve, first)
            }
            state.requests += 1
            state.highestStream = max(state.highestStream, stream)
            guard state.requests >= limit else { return (.serve, first) }
            state.lastPromised = state.highestStream
            return (.serveAfterGoAway(lastStream: state.highestStream), first)
        }
        if first {
            connection.closeFuture.whenComplete { [weak self] _ in _ = self?.connections.withLock { $0.removeValue(forKey: key) } }
        }
        switch decision {
        case .serve:
            break
        case .serveAfterGoAway(let lastStream):
            sent.add(1, ordering: .relaxed)
            await HTTP2Stream.goAway(connection, lastStreamID: lastStream)
        case .refuse:
            await HTTP2Stream.reset(context.channel, code: .refusedStream)
            throw FaultInjectionMiddleware.ConnectionDroppedOnPurpose()
        }
        return try await next(request, context)
    }
}
