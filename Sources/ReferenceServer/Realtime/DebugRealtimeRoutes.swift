import Hummingbird

/// The real-time fault controls over HTTP, under `/debug`, without authentication (for
/// `courier serve --debug-routes` and a shell):
///
/// - `POST /debug/realtime/drop` → `{"dropped": N}`: every WebSocket closed without a close
///   frame, every event stream ended;
/// - `POST /debug/realtime/deaf?count=N` → 204: the next N WebSockets never answer pings.
struct DebugRealtimeRoutes: Sendable {
    let hub: RealtimeHub

    func register<Context: RequestContext>(on debug: RouterGroup<Context>) {
        debug.post("realtime/drop") { _, _ in
            try Response.json(["dropped": hub.dropConnections()])
        }
        debug.post("realtime/deaf") { request, _ in
            let count = try QueryItems(rawQuery: request.uri.query).integer("count", default: 1, in: 1...1_000)
            hub.stopAnsweringPings(connections: count)
            return Response.bodiless(status: .noContent)
        }
    }
}
