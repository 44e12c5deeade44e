import Foundation
import Hummingbird
import IntervalsCore

/// intervals.icu API v1's activity and wellness routes under `/api/v1`, on the service's own
/// athlete-scoped paths:
///
/// - `GET /athlete/{athleteId}/activities?oldest&newest[&limit]`: a bare JSON array, newest first;
/// - `GET` and `PUT /activity/{activityId}`: one activity, read or renamed and retyped;
/// - `GET /athlete/{athleteId}/wellness?oldest&newest`: a bare JSON array, oldest first;
/// - `GET` and `PUT /athlete/{athleteId}/wellness/{YYYY-MM-DD}`: one day, read or written;
/// - `PUT /athlete/{athleteId}/wellness-bulk`: many days written at once.
///
/// Athlete `0` is the athlete the credential belongs to, as is the athlete's own id (`i1001`);
/// any other athlete is 403. Calls are signed as ``IntervalsAccessMiddleware`` checks.
///
/// Reads are cacheable: `Cache-Control: private, max-age=300`, a strong `ETag`, and
/// `Last-Modified` (the newest change among what is returned); `If-None-Match` and
/// `If-Modified-Since` answer 304. Each athlete has their own synthetic history.
struct IntervalsRoutes: Sendable {
    /// The `Cache-Control` of every read: five minutes fresh, for this user only.
    static let cacheControl = "private, max-age=300"
    /// The longest wellness range, in days.
    static let maximumWellnessDays = 366
    /// The most activities one list returns; also what a list without `limit` returns.
    static let maximumActivities = 500
    /// The most days one bulk write takes.
    static let maximumBulkDays = 366

    let store: IntervalsStore

    /// Adds the routes to a group mounted at `/api/v1`, behind ``IntervalsAccessMiddleware``.
    func register(on v1: RouterGroup<ReferenceRequestContext>) {
        v1.get("athlete/{athleteId}/activities") { request, context in
            try await listActivities(request, userId: athleteUser(context))
        }
        v1.get("activity/{id}") { request, context in
            let id = context.parameters.get("id") ?? ""
            guard let stored = await store.activity(id: id, userId: try context.requireUserId()) else { throw Self.activityNotFound(id) }
            return try Response.cacheableJSON(stored.activity, for: request, cacheControl: Self.cacheControl, lastModified: stored.updatedAt)
        }
        v1.put("activity/{id}") { request, context in
            try await updateActivity(request, id: context.parameters.get("id") ?? "", userId: context.requireUserId())
        }
        v1.get("athlete/{athleteId}/wellness") { request, context in
            try await listWellness(request, userId: athleteUser(context))
        }
        v1.get("athlete/{athleteId}/wellness/{day}") { request, context in
            let userId = try await athleteUser(context)
            let day = try Self.pathDay(context)
            guard let record = await store.wellness(userId: userId, day: day) else { throw APIError.notFound("no wellness record for \(day)") }
            return try Response.cacheableJSON(record, for: request, cacheControl: Self.cacheControl, lastModified: record.updatedAt)
        }
        v1.put("athlete/{athleteId}/wellness/{day}") { request, context in
            let userId = try await athleteUser(context)
            let day = try Self.pathDay(context)
            var record = try await request.decodeJSONBody(as: Wellness.self)
            try Self.validate(record)
            guard record.id == day else { throw APIError.validationFailed("the record's id \(record.id) is not the path's day \(day)") }
            record.updatedAt = nil
            let written = await store.write(userId: userId, [record], at: Date())
            return try Response.json(written[0])
        }
        v1.put("athlete/{athleteId}/wellness-bulk") { request, context in
            let userId = try await athleteUser(context)
            let records = try await request.decodeJSONBody(as: [Wellness].self)
            guard records.count <= Self.maximumBulkDays else {
                throw APIError.validationFailed("at most \(Self.maximumBulkDays) days in one bulk write, got \(records.count)")
            }
            try records.forEach(Self.validate)
            _ = await store.write(userId: userId, records.map { var record = $0; record.updatedAt = nil; return record }, at: Date())
            return Response.bodiless(status: .ok, headers: [.contentLength: "0"])
        }
    }

    /// The user whose data the path's athlete names: `0` and the user's own athlete id are the
    /// signed-in user; any other athlete is 403.
    private func athleteUser(_ context: ReferenceRequestContext) async throws -> String {
        let userId = try context.requireUserId()
        let athlete = context.parameters.get("athleteId") ?? ""
        guard athlete == "0" else {
            let own = await store.athleteId(userId: userId)
            guard athlete == own else {
                throw APIError(status: .forbidden, code: "forbidden", message: "this credential cannot read athlete \(athlete)")
            }
            return userId
        }
        return userId
    }

    private func listActivities(_ request: Request, userId: String) async throws -> Response {
        let query = QueryItems(rawQuery: request.uri.query)
        let limit = try query.integer("limit", default: Self.maximumActivities, in: 1...Self.maximumActivities)
        guard let oldest = try Self.day(query, "oldest") else {
            throw APIError.validationFailed("oldest is required, as a date (2026-11-01)")
        }
        let newest = try Self.day(query, "newest") ?? TrainingHistoryGenerator.lastDay
        let activities = await store.activities(userId: userId, oldest: oldest, newest: newest, limit: limit)
        return try Response.cacheableJSON(
            activities.map(\.activity), for: request, cacheControl: Self.cacheControl, lastModified: activities.map(\.updatedAt).max()
        )
    }

    private func updateActivity(_ request: Request, id: String, userId: String) async throws -> Response {
        let update = try await request.decodeJSONBody(as: ActivityUpdate.self)
        if let name = update.name, name.trimmingCharacters(in: .whitespaces).isEmpty || name.count > 200 {
            throw APIError.validationFailed("name must be 1…200 characters")
        }
        if let type = update.type, type.rawValue.trimmingCharacters(in: .whitespaces).isEmpty {
            throw APIError.validationFailed("type must name a sport, such as \"Ride\"")
        }
        guard let stored = await store.update(id: id, userId: userId, with: update, at: Date()) else {
            throw Self.activityNotFound(id)
        }
        return try Response.json(stored.activity, headers: [.contentLocation: "/api/v1/activity/\(stored.activity.id)"])
    }

    private func listWellness(_ request: Request, userId: String) async throws -> Response {
        let query = QueryItems(rawQuery: request.uri.query)
        guard let start = try Self.day(query, "oldest") else {
            throw APIError.validationFailed("oldest is required, as a date (2026-11-01)")
        }
        let end = try Self.day(query, "newest") ?? start.adding(days: Self.maximumWellnessDays - 1)
        guard start <= end else { throw APIError.badRequest("oldest must not be after newest") }
        guard start.adding(days: Self.maximumWellnessDays - 1) >= end else {
            throw APIError.badRequest("the range is longer than \(Self.maximumWellnessDays) days")
        }
        let records = await store.wellness(userId: userId, start: start, end: end)
        return try Response.cacheableJSON(records, for: request, cacheControl: Self.cacheControl, lastModified: records.compactMap(\.updatedAt).max())
    }

    /// A query parameter as a day, `YYYY-MM-DD` (intervals.icu also reads a date-time by its day).
    private static func day(_ query: QueryItems, _ name: String) throws -> CalendarDay? {
        guard let text = query.first(name) else { return nil }
        if let day = CalendarDay(text) { return day }
        if let moment = APIJSON.parseISO8601(text) { return CalendarDay(moment) }
        throw APIError.badRequest("\(name) must be a date as YYYY-MM-DD, not \"\(text)\"")
    }

    private static func pathDay(_ context: ReferenceRequestContext) throws -> CalendarDay {
        let text = context.parameters.get("day") ?? ""
        guard let day = CalendarDay(text) else { throw APIError.badRequest("the day must be a date as YYYY-MM-DD, not \"\(text)\"") }
        return day
    }

    /// Refuses what intervals.icu would: a 1–4 scale outside 1…4.
    private static func validate(_ record: Wellness) throws {
        for (name, value) in [("soreness", record.soreness), ("fatigue", record.fatigue), ("mood", record.mood)] {
            if let value, !(1...4).contains(value) {
                throw APIError.validationFailed("\(name) is a scale from 1 to 4, not \(value) (on \(record.id))")
            }
        }
    }

    private static func activityNotFound(_ id: String) -> APIError {
        APIError.notFound("no activity \(id)")
    }
}
