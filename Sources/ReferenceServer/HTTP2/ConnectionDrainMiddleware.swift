import Hummingbird
import NIOCore
import Synchronization

/// Drains each HTTP/2 connection after a number of requests, as busy services do (nginx's
/// `keepalive_requests`): when the `limit`-th request of a connection arrives, the server sends
/// `GOAWAY` naming that request's stream as the last it will process, then serves it. Streams
/// the client opened after it are never processed; a client sends them again on a new
/// connection. HTTP/1.1 requests pass untouched.
///
/// `Sendable` without `@unchecked`: the counts sit in a `Mutex`.
final class ConnectionDrainMiddleware: RouterMiddleware, Sendable {
    typealias Context = ReferenceRequestContext

    /// Requests per connection before it drains.
    let limit: Int
    /// Requests seen per connection, by the connection's identity; an entry goes when its connection closes.
    private let counts = Mutex<[ObjectIdentifier: Int]>([:])
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
        let (count, first) = counts.withLock { counts -> (Int, Bool) in
            let count = counts[key, default: 0] + 1
            counts[key] = count
            return (count, count == 1)
        }
        if first {
            connection.closeFuture.whenComplete { [weak self] _ in _ = self?.counts.withLock { $0.removeValue(forKey: key) } }
        }
        if count == limit {
            sent.add(1, ordering: .relaxed)
            await HTTP2Stream.goAway(connection, lastStreamID: stream)
        }
        return try await next(request, context)
    }
}
