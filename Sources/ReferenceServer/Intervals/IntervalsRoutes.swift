import Foundation
import Hummingbird
import IntervalsCore

/// The intervals-style training API under `/api/v1`: activities and wellness.
///
/// Reads are cacheable: `Cache-Control: private, max-age=300`, a strong `ETag`, and
/// `Last-Modified` (the newest `updatedAt` among what is returned); `If-None-Match` and
/// `If-Modified-Since` answer 304. Each user has their own synthetic history.
struct IntervalsRoutes: Sendable {
    /// The `Cache-Control` of every read: five minutes fresh, for this user only.
    static let cacheControl = "private, max-age=300"
    /// The longest wellness range, in days.
    static let maximumWellnessDays = 366

    let store: IntervalsStore

    /// Adds the routes to a group mounted at `/api`, behind authentication.
    func register(on api: RouterGroup<ReferenceRequestContext>) {
        api.get("v1/activities") { request, context in try await listActivities(request, userId: context.requireUserId()) }
        api.get("v1/activities/{id}") { request, context in
            let id = context.parameters.get("id") ?? ""
            guard let activity = await store.activity(id: id, userId: try context.requireUserId()) else { throw Self.activityNotFound(id) }
            return try Response.cacheableJSON(activity, for: request, cacheControl: Self.cacheControl, lastModified: activity.updatedAt)
        }
        api.put("v1/activities/{id}") { request, context in
            let id = context.parameters.get("id") ?? ""
            let update = try await request.decodeJSONBody(as: ActivityUpdate.self)
            if let name = update.name, name.trimmingCharacters(in: .whitespaces).isEmpty || name.count > 200 {
                throw APIError.validationFailed("name must be 1…200 characters")
            }
            guard let activity = await store.update(id: id, userId: try context.requireUserId(), with: update, at: Date()) else {
                throw Self.activityNotFound(id)
            }
            return try Response.json(activity, headers: [.contentLocation: "/api/v1/activities/\(activity.id)"])
        }
        api.get("v1/wellness") { request, context in try await listWellness(request, userId: context.requireUserId()) }
    }

    private func listActivities(_ request: Request, userId: String) async throws -> Response {
        let query = QueryItems(rawQuery: request.uri.query)
        let limit = try query.integer("limit", default: 100, in: 1...500)
        let oldest = try Self.day(query, "oldest")
        let newest = try Self.day(query, "newest")
        let activities = await store.activities(userId: userId, oldest: oldest, newest: newest, limit: limit)
        return try Response.cacheableJSON(activities, for: request, cacheControl: Self.cacheControl, lastModified: activities.map(\.updatedAt).max())
    }

    private func listWellness(_ request: Request, userId: String) async throws -> Response {
        let query = QueryItems(rawQuery: request.uri.query)
        guard let start = try Self.day(query, "start"), let end = try Self.day(query, "end") else {
            throw APIError.badRequest("start and end are required, as YYYY-MM-DD")
        }
        guard start <= end else { throw APIError.badRequest("start must not be after end") }
        guard start.adding(days: Self.maximumWellnessDays - 1) >= end else {
            throw APIError.badRequest("the range is longer than \(Self.maximumWellnessDays) days")
        }
        let records = await store.wellness(userId: userId, start: start, end: end)
        return try Response.cacheableJSON(records, for: request, cacheControl: Self.cacheControl, lastModified: records.map(\.updatedAt).max())
    }

    private static func day(_ query: QueryItems, _ name: String) throws -> CalendarDay? {
        guard let text = query.first(name) else { return nil }
        guard let day = CalendarDay(text) else { throw APIError.badRequest("\(name) must be a date as YYYY-MM-DD, not \"\(text)\"") }
        return day
    }

    private static func activityNotFound(_ id: String) -> APIError {
        APIError.notFound("no activity \(id)")
    }
}
