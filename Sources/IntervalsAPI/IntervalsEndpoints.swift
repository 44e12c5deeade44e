public import Courier
public import Foundation
public import IntervalsCore

/// The intervals-style training API's endpoints as typed requests.
///
/// Paths are relative to ``root``, as the VeloReady document writes them against its base URL
/// `https://intervals.icu/api/v1`: `/activities`, `/activities/{id}`, `/wellness`. Send them
/// with a client whose base URL ends in the root; ``IntervalsClient/init(baseURL:transport:activitiesPolicy:wellnessPolicy:listLimit:configure:)``
/// makes one from the server's address in either form.
///
/// The reference server marks its answers cacheable (`Cache-Control: private, max-age=…`,
/// `ETag`, `Last-Modified`), so with an `HTTPCache` on the client, repeated reads
/// are served from the cache and stale ones are revalidated with a 304.
public enum IntervalsEndpoints {
    /// The path prefix the API lives under, `/api/v1`: every path here is relative to it.
    ///
    /// Normalise a server address with it before making a client, so `https://intervals.icu`
    /// and `https://intervals.icu/api/v1` both work and `/api/v1/api/v1/…` is never sent:
    ///
    /// ```swift
    /// let base = IntervalsEndpoints.root.baseURL(for: URL(string: "https://intervals.icu")!)
    /// // https://intervals.icu/api/v1
    /// ```
    public static let root = APIRoot("/api/v1")

    /// `GET /activities`: the athlete's activities, newest first, as a bare JSON array.
    ///
    /// With no arguments the request is exactly the document's: no query. The arguments are
    /// intervals.icu's own filters, sent only when given.
    /// - Parameters:
    ///   - oldest: The first day to include (`oldest=YYYY-MM-DD`), if any.
    ///   - newest: The last day to include (`newest=YYYY-MM-DD`), if any.
    ///   - limit: The most activities returned (`limit`, 1…500 on the reference server), if any.
    public static func activities(oldest: CalendarDay? = nil, newest: CalendarDay? = nil, limit: Int? = nil) -> Request<[Activity]> {
        var query: [URLQueryItem] = []
        if let oldest { query.append(URLQueryItem(name: "oldest", value: oldest.description)) }
        if let newest { query.append(URLQueryItem(name: "newest", value: newest.description)) }
        if let limit { query.append(URLQueryItem(name: "limit", value: "\(limit)")) }
        return Request(path: "/activities", query: query, name: "intervals.activities")
    }

    /// `GET /activities/{id}`: one activity.
    /// - Parameter id: The activity's id; it is escaped as one path segment.
    public static func activity(id: String) -> Request<Activity> {
        Request(path: activityPath(id), name: "intervals.activity")
    }

    /// `PUT /activities/{id}`: changes an activity's name or type; returns the new version.
    ///
    /// The body is an `ActivityUpdate`: only the fields that are set. When it
    /// succeeds, every stored response under `/activities` is dropped (the activity and every
    /// list that shows it, see `RequestOptions.invalidates`), so cache-first reads
    /// do not keep serving the old version.
    /// - Parameters:
    ///   - id: The activity's id.
    ///   - update: The fields to change.
    public static func updateActivity(id: String, _ update: ActivityUpdate) -> Request<Activity> {
        var request = Request<Activity>(method: .put, path: activityPath(id), body: .json(update), name: "intervals.activity.update")
        request.options.invalidates = ["/activities"]
        return request
    }

    /// `GET /wellness?start&end`: one record per day, oldest first, as a bare JSON array; days
    /// without data are left out.
    ///
    /// `start` and `end` are ISO 8601 date-times in UTC without fractional seconds
    /// (`2026-11-01T00:00:00Z`), as the document's client writes them.
    /// - Parameters:
    ///   - start: The first moment; the server starts from the day it falls on.
    ///   - end: The last moment; the server includes the day it falls on.
    public static func wellness(start: Date, end: Date) -> Request<[Wellness]> {
        Request(
            path: "/wellness",
            query: [URLQueryItem(name: "start", value: queryDate(start)), URLQueryItem(name: "end", value: queryDate(end))],
            name: "intervals.wellness"
        )
    }

    /// `GET /wellness?start&end` for whole days: from the first day through the last, both
    /// included, each sent as its midnight in UTC (`start=2026-11-01T00:00:00Z`).
    /// - Parameters:
    ///   - start: The first day.
    ///   - end: The last day (at most 366 days after `start` on the reference server).
    public static func wellness(start: CalendarDay, end: CalendarDay) -> Request<[Wellness]> {
        wellness(start: start.startDate, end: end.startDate)
    }

    private static func activityPath(_ id: String) -> String {
        "/activities/" + RequestTarget.pathSegment(id)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`: what `ISO8601DateFormatter`'s defaults write.
    private static func queryDate(_ date: Date) -> String {
        date.formatted(queryDateStyle)
    }

    private static let queryDateStyle = Date.ISO8601FormatStyle()
}
