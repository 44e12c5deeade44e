import Foundation
import Hummingbird
import HummingbirdCore
import NIOCore
import Synchronization

/// A plain HTTP server on `127.0.0.1` whose `GET /events` answers every request with the
/// same `text/event-stream` body, then ends it: a server that sends whatever a test needs,
/// a hostile one included. It counts the requests it answers.
///
/// `Sendable` without `@unchecked`: the count sits in a `Mutex`.
final class EventStreamTestServer: Sendable {
    private let requests = Mutex(0)

    /// The requests answered so far.
    var requestCount: Int { requests.withLock { $0 } }

    fileprivate func requestAnswered() { requests.withLock { $0 += 1 } }

    /// Runs `body` with a server listening on an ephemeral loopback port, stopped afterwards.
    /// - Parameters:
    ///   - streamBody: The bytes of every response, as UTF-8.
    ///   - body: Receives the server and its base URL, `http://127.0.0.1:PORT`.
    static func withRunning<T: Sendable>(
        streamBody: String,
        _ body: (EventStreamTestServer, URL) async throws -> T
    ) async throws -> T {
        let server = EventStreamTestServer()
        let router = Router()
        router.get("events") { _, _ -> Response in
            server.requestAnswered()
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: streamBody))
                    try await writer.finish(nil)
                }
            )
        }
        return try await LoopbackApplication.withRunning(router, label: "courier.event-stream-test-server") { url in try await body(server, url) }
    }
}
