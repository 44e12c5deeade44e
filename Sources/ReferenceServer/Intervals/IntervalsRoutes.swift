import Foundation
import Hummingbird
import IntervalsCore

/// The intervals-style training API under `/api/v1`, as the VeloReady document defines it
/// against the base URL `…/api/v1`: `GET /activities` and `GET /wellness` answer bare JSON
/// arrays, `GET /activities/{id}` one activity, in intervals.icu's field names.
///
/// Reads are cacheable: `Cache-Control: private, max-age=300`, a strong `ETag`, and
/// `Last-Modified` (the newest change among what is returned); `If-None-Match` and
/// `If-Modified-Since` answer 304. Each user has their own synthetic history.
///
/// Beyond the document, the server also takes intervals.icu's `oldest`, `newest` and `limit`
/// filters on the activity list, accepts a plain `YYYY-MM-DD` for the wellness `start` and
/// `end` as well as the document's ISO 8601 date-times, and lets an activity be renamed or
/// retyped with `PUT /activities/{id}`.
struct IntervalsRoutes: Sendable {
    /// The `Cache-Control` of every read: five minutes fresh, for this user only.
    static let cacheControl = "private, max-age=300"
    /// The longest wellness range, in days.
    static let maximumWellnessDays = 366
    /// The most activities one list returns; also what a list without `limit` returns.
    static let maximumActivities = 500

    let store: IntervalsStore

    /// Adds the routes to a group mounted at `/api`, behind authentication.
    func register(on api: RouterGroup<ReferenceRequestContext>) {
        api.get("v1/activities") { request, context in try await listActivities(request, userId: context.requireUserId()) }
        api.get("v1/activities/{id}") { request, context in
            let id = context.parameters.get("id") ?? ""
            guard let stored = await store.activity(id: id, userId: try context.requireUserId()) else { throw Self.activityNotFound(id) }
            return try Response.cacheableJSON(stored.activity, for: request, cacheControl: Self.cacheControl, lastModified: stored.updatedAt)
        }
        api.put("v1/activities/{id}") { request, context in
            let id = context.parameters.get("id") ?? ""
            let update = try await request.decodeJSONBody(as: ActivityUpdate.self)
            if let name = update.name, name.trimmingCharacters(in: .whitespaces).isEmpty || name.count > 200 {
                throw APIError.validationFailed("name must be 1…200 characters")
            }
            if let type = update.type, type.rawValue.trimmingCharacters(in: .whitespaces).isEmpty {
                throw APIError.validationFailed("type must name a sport, such as \"Ride\"")
            }
            guard let stored = await store.update(id: id, userId: try context.requireUserId(), with: update, at: Date()) else {
                throw Self.activityNotFound(id)
            }
            return try Response.json(stored.activity, headers: [.contentLocation: "/api/v1/activities/\(stored.activity.id)"])
        }
        api.get("v1/wellness") { request, context in try await listWellness(request, userId: context.requireUserId()) }
    }

    private func listActivities(_ request: Request, userId: String) async throws -> Response {
        let query = QueryItems(rawQuery: request.uri.query)
        let limit = try query.integer("limit", default: Self.maximumActivities, in: 1...Self.maximumActivities)
        let oldest = try Self.day(query, "oldest")
        let newest = try Self.day(query, "newest")
        let activities = await store.activities(userId: userId, oldest: oldest, newest: newest, limit: limit)
        return try Response.cacheableJSON(
            activities.map(\.activity), for: request, cacheControl: Self.cacheControl, lastModified: activities.map(\.updatedAt).max()
        )
    }

    private func listWellness(_ request: Request, userId: String) async throws -> Response {
        let query = QueryItems(rawQuery: request.uri.query)
        guard let start = try Self.day(query, "start"), let end = try Self.day(query, "end") else {
            throw APIError.badRequest("start and end are required, as ISO 8601 date-times (2026-11-01T00:00:00Z) or dates (2026-11-01)")
        }
        guard start <= end else { throw APIError.badRequest("start must not be after end") }
        guard start.adding(days: Self.maximumWellnessDays - 1) >= end else {
            throw APIError.badRequest("the range is longer than \(Self.maximumWellnessDays) days")
        }
        let records = await store.wellness(userId: userId, start: start, end: end)
        return try Response.cacheableJSON(records, for: request, cacheControl: Self.cacheControl, lastModified: records.compactMap(\.updatedAt).max())
    }

    /// A query parameter as a day: `YYYY-MM-DD`, or an ISO 8601 date-time, which names the UTC
    /// day it falls on (`2026-11-01T00:00:00Z` is 1 November).
    private static func day(_ query: QueryItems, _ name: String) throws -> CalendarDay? {
        guard let text = query.first(name) else { return nil }
        if let day = CalendarDay(text) { return day }
        if let moment = APIJSON.parseISO8601(text) { return CalendarDay(moment) }
        throw APIError.badRequest("\(name) must be an ISO 8601 date-time or a date as YYYY-MM-DD, not \"\(text)\"")
    }

    private static func activityNotFound(_ id: String) -> APIError {
        APIError.notFound("no activity \(id)")
    }
}
