import Foundation
import Hummingbird
import RadarCore

/// The radar live-update routes under `/api`, behind authentication:
///
/// - `GET /api/radars/{id}/events`: the updates as Server-Sent Events. Each event carries
///   `id:` (its sequence number), `event:` (its type) and `data:` (the tagged JSON of a
///   `RadarUpdate`). The stream starts with `retry:`; without `Last-Event-ID`
///   (or when the server no longer has what followed it) it sends the whole radar first, as a
///   `refresh`; with it, it sends the updates that followed, then goes on live.
/// - `GET /api/ws/radar/{id}` without an upgrade: 426 (the WebSocket itself is accepted by
///   ``RealtimeUpgrade``, before routing).
struct RadarEventStreamRoutes: Sendable {
    let store: RadarStore
    let hub: RealtimeHub

    static let lastEventID = HeaderName("Last-Event-ID")!

    func register(on api: RouterGroup<ReferenceRequestContext>) {
        api.get("radars/{id}/events") { request, context in
            try await eventStream(request, radarId: context.parameters.get("id"), userId: context.requireUserId())
        }
        api.get("ws/radar/{id}") { _, context -> Response in
            let id = context.parameters.get("id")
            guard let id, await store.radar(id: id, userId: try context.requireUserId()) != nil else {
                throw APIError.notFound("radar \(id ?? "") not found")
            }
            throw APIError(status: .upgradeRequired, code: "upgrade_required", message: "this route is a WebSocket: send an upgrade request")
        }
    }

    private func eventStream(_ request: Request, radarId: String?, userId: String) async throws -> Response {
        guard let radarId, await store.radar(id: radarId, userId: userId) != nil else {
            throw APIError.notFound("radar \(radarId ?? "") not found")
        }
        let lastEventHeader = request.headers[Self.lastEventID]
        hub.noteLastEventID(lastEventHeader)
        let resumeAfter = lastEventHeader.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let feed = hub.feed
        let store = self.store
        let retry = hub.eventStreamRetryMilliseconds
        let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-cache"]
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            let (subscription, updates) = feed.subscribe(radarId: radarId, droppable: true)
            defer { feed.unsubscribe(subscription) }
            try await writer.write(ByteBuffer(string: "retry: \(retry)\n\n"))
            var lastSent = 0
            if let resumeAfter, let missed = feed.updates(radarId: radarId, after: resumeAfter) {
                lastSent = resumeAfter
                for item in missed {
                    try await writer.write(ByteBuffer(string: try Self.event(item)))
                    lastSent = item.sequence
                }
            } else {
                let sequence = feed.latestSequence(radarId: radarId)
                if let radar = await store.radar(id: radarId, userId: userId) {
                    try await writer.write(ByteBuffer(string: try Self.event(.init(sequence: sequence, update: .refresh(radar)))))
                }
                lastSent = sequence
            }
            for await item in updates where item.sequence > lastSent {
                try await writer.write(ByteBuffer(string: try Self.event(item)))
                lastSent = item.sequence
            }
            try await writer.finish(nil)
        })
    }

    /// One update as an event-stream block.
    static func event(_ item: RadarUpdateFeed.Sequenced) throws -> String {
        "id: \(item.sequence)\nevent: \(item.update.type)\ndata: \(try RealtimeUpgrade.text(item.update))\n\n"
    }
}
