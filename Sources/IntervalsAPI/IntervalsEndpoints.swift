public import Courier
import Foundation
public import IntervalsCore

/// The intervals-style training API's endpoints as typed requests.
///
/// The server marks its answers cacheable (`Cache-Control: private, max-age=…`, `ETag`,
/// `Last-Modified`), so with an ``Courier/HTTPCache`` on the client, repeated reads are
/// served from the cache and stale ones are revalidated with a 304.
public enum IntervalsEndpoints {
    /// `GET /api/v1/activities?oldest&newest&limit`: the athlete's activities, newest first.
    /// - Parameters:
    ///   - oldest: The first day to include, if any.
    ///   - newest: The last day to include, if any.
    ///   - limit: The most activities returned, 1…500.
    public static func activities(oldest: CalendarDay? = nil, newest: CalendarDay? = nil, limit: Int = 100) -> Request<[Activity]> {
        var query = [URLQueryItem(name: "limit", value: "\(limit)")]
        if let oldest { query.append(URLQueryItem(name: "oldest", value: oldest.description)) }
        if let newest { query.append(URLQueryItem(name: "newest", value: newest.description)) }
        return Request(path: "/api/v1/activities", query: query, name: "intervals.activities")
    }

    /// `GET /api/v1/activities/{id}`: one activity.
    /// - Parameter id: The activity's id.
    public static func activity(id: String) -> Request<Activity> {
        Request(path: activityPath(id), name: "intervals.activity")
    }

    /// `PUT /api/v1/activities/{id}`: changes an activity's name or type; returns the new version.
    /// - Parameters:
    ///   - id: The activity's id.
    ///   - update: The fields to change.
    public static func updateActivity(id: String, _ update: ActivityUpdate) -> Request<Activity> {
        Request(method: .put, path: activityPath(id), body: .json(update), name: "intervals.activity.update")
    }

    /// `GET /api/v1/wellness?start&end`: one record per day from `start` to `end`, both included,
    /// oldest first; days without data are left out.
    /// - Parameters:
    ///   - start: The first day.
    ///   - end: The last day (at most 366 days after `start`).
    public static func wellness(start: CalendarDay, end: CalendarDay) -> Request<[Wellness]> {
        Request(
            path: "/api/v1/wellness",
            query: [URLQueryItem(name: "start", value: start.description), URLQueryItem(name: "end", value: end.description)],
            name: "intervals.wellness"
        )
    }

    private static func activityPath(_ id: String) -> String {
        "/api/v1/activities/" + RequestTarget.pathSegment(id)
    }
}
