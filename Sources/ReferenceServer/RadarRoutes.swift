import Foundation
import Hummingbird
import RadarCore

/// The Radar API under `/api`, as seed 000 defines it: radars (the list is a bare JSON array,
/// with `X-Total-Count` beside it), their opinions and trends, and topic interpretation.
///
/// Every route needs an access token (``AccessTokenMiddleware`` runs first) and answers JSON;
/// failures are thrown as ``APIError`` and rendered by ``APIErrorMiddleware``. A user sees their
/// own radars and public ones, and deletes or refreshes only their own: anything else is 404.
/// Creating, refreshing and deleting honour `Idempotency-Key` (``IdempotentWrite``).
struct RadarRoutes: Sendable {
    /// The longest topic accepted, in Unicode code points as sent (the way JSON Schema counts).
    static let maximumTopicLength = 200
    /// The page size when `limit` is absent.
    static let defaultPageLimit = 20
    /// The days a trend covers when `days` is absent.
    static let defaultTrendDays = 7

    let store: RadarStore
    let idempotency: IdempotentWrite

    /// Adds the routes to a group mounted at `/api`, behind authentication.
    func register(on api: RouterGroup<ReferenceRequestContext>) {
        api.get("radars") { request, context in try await listRadars(request, userId: context.requireUserId()) }
        api.post("radars") { request, context in
            try await idempotency.respond(to: request, context: context) { request, context in
                try await createRadar(request, userId: context.requireUserId())
            }
        }
        api.get("radars/{id}") { request, context in
            try await showRadar(request, id: context.parameters.get("id"), userId: context.requireUserId())
        }
        api.delete("radars/{id}") { request, context in
            try await idempotency.respond(to: request, context: context) { _, context in
                try await deleteRadar(id: context.parameters.get("id"), userId: context.requireUserId())
            }
        }
        api.post("radars/{id}/refresh") { request, context in
            try await idempotency.respond(to: request, context: context) { _, context in
                try await refreshRadar(id: context.parameters.get("id"), userId: context.requireUserId())
            }
        }
        api.get("radars/{id}/opinions") { request, context in
            try await listOpinions(request, radarId: context.parameters.get("id"), userId: context.requireUserId())
        }
        api.get("radars/{id}/trends") { request, context in
            try await showTrend(radarId: context.parameters.get("id"), userId: context.requireUserId(), request: request)
        }
        api.post("interpret") { request, _ in try await interpret(request) }
    }

    private func listRadars(_ request: Request, userId: String) async throws -> Response {
        let query = QueryItems(rawQuery: request.uri.query)
        let limit = try query.integer("limit", default: Self.defaultPageLimit, in: 1...100)
        let offset = try query.integer("offset", default: 0, in: 0...Int.max)
        let page = await store.page(limit: limit, offset: offset, userId: userId)
        // The documented body is the bare array; the total travels in a header beside it.
        return try Response.cacheableJSON(page.items, for: request, headers: [.totalCount: "\(page.total ?? page.items.count)"])
    }

    private func createRadar(_ request: Request, userId: String) async throws -> Response {
        let body = try await request.decodeJSONBody(as: CreateRadarRequest.self)
        let topic = try Self.validatedTopic(body.topic, maximumLength: Self.maximumTopicLength)
        let radar = await store.create(topic: topic, isPublic: body.isPublic ?? false, userId: userId)
        return try Response.json(radar, status: .created, headers: [.location: "/api/radars/\(radar.id)"])
    }

    private func showRadar(_ request: Request, id: String?, userId: String) async throws -> Response {
        guard let id, let radar = await store.radar(id: id, userId: userId) else { throw Self.radarNotFound(id) }
        return try Response.cacheableJSON(radar, for: request)
    }

    private func deleteRadar(id: String?, userId: String) async throws -> Response {
        guard let id, await store.delete(id: id, userId: userId) else { throw Self.radarNotFound(id) }
        // The document's client decodes an empty JSON object from the answer, so one is sent.
        return Response.jsonText(Array("{}".utf8))
    }

    private func refreshRadar(id: String?, userId: String) async throws -> Response {
        guard let id, let radar = await store.refresh(id: id, userId: userId) else { throw Self.radarNotFound(id) }
        return try Response.json(radar, headers: [.contentLocation: "/api/radars/\(radar.id)"])
    }

    private func listOpinions(_ request: Request, radarId: String?, userId: String) async throws -> Response {
        guard let radarId, let opinions = await store.opinions(radarId: radarId, userId: userId) else {
            throw Self.radarNotFound(radarId)
        }
        return try Response.cacheableJSON(opinions, for: request)
    }

    private func showTrend(radarId: String?, userId: String, request: Request) async throws -> Response {
        let query = QueryItems(rawQuery: request.uri.query)
        let days = try query.integer("days", default: Self.defaultTrendDays, in: 1...90)
        guard let radarId, let trend = await store.trend(radarId: radarId, days: days, userId: userId) else {
            throw Self.radarNotFound(radarId)
        }
        return try Response.cacheableJSON(trend, for: request)
    }

    private func interpret(_ request: Request) async throws -> Response {
        let body = try await request.decodeJSONBody(as: InterpretRequest.self)
        let topic = try Self.validatedTopic(body.topic, maximumLength: Self.maximumTopicLength)
        return try Response.json(await store.interpret(topic: topic))
    }

    /// The topic, trimmed, if it is 1 to `maximumLength` characters long.
    /// - Throws: ``APIError`` 422 `validation_failed` otherwise.
    static func validatedTopic(_ topic: String, maximumLength: Int) throws -> String {
        let trimmed = topic.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw APIError.validationFailed("topic must not be empty")
        }
        // Counted as the OpenAPI document's `maxLength` counts: Unicode code points, as sent.
        let length = topic.unicodeScalars.count
        guard length <= maximumLength else {
            throw APIError.validationFailed("topic must be at most \(maximumLength) characters, got \(length)")
        }
        return trimmed
    }

    private static func radarNotFound(_ id: String?) -> APIError {
        .notFound("radar \(id ?? "") not found")
    }
}
