public import Courier
public import Foundation
public import IntervalsCore

/// intervals.icu API v1's endpoints as typed requests.
///
/// intervals.icu scopes every list to an athlete: `/athlete/{athleteId}/activities`,
/// `/athlete/{athleteId}/wellness`. Athlete `"0"` (``currentAthlete``) means the athlete the
/// credential belongs to, which is what an app signed in as one athlete sends. One activity is
/// read and changed at `/activity/{activityId}`, outside the athlete's path.
///
/// Paths are relative to ``root``: send them with a client whose base URL ends in
/// `/api/v1`; ``IntervalsClient`` makes one from `https://intervals.icu` or
/// `https://intervals.icu/api/v1` alike.
///
/// Seed 003 (VeloReady) illustrates the API with `GET /activities` and
/// `GET /wellness?start&end`. The real service has neither and answers them with 404, so
/// these requests follow the service.
public enum IntervalsEndpoints {
    /// The path prefix the API lives under, `/api/v1`: every path here is relative to it.
    ///
    /// ```swift
    /// let base = IntervalsEndpoints.root.baseURL(for: URL(string: "https://intervals.icu")!)
    /// // https://intervals.icu/api/v1
    /// ```
    public static let root = APIRoot("/api/v1")

    /// The athlete id that means "the athlete this credential belongs to": `"0"`.
    public static let currentAthlete = "0"

    /// `GET /athlete/{athleteId}/activities?oldest&newest`: the athlete's activities that
    /// started between two days, both included, as a bare JSON array, newest first.
    /// - Parameters:
    ///   - athlete: The athlete; ``currentAthlete`` by default.
    ///   - oldest: The first day to include (`oldest=YYYY-MM-DD`); the service requires it.
    ///   - newest: The last day to include (`newest=YYYY-MM-DD`); today on the service when `nil`.
    ///   - limit: The most activities returned (`limit`), if any.
    public static func activities(
        athlete: String = currentAthlete, oldest: CalendarDay, newest: CalendarDay? = nil, limit: Int? = nil
    ) -> Request<[Activity]> {
        var query = [URLQueryItem(name: "oldest", value: oldest.description)]
        if let newest { query.append(URLQueryItem(name: "newest", value: newest.description)) }
        if let limit { query.append(URLQueryItem(name: "limit", value: "\(limit)")) }
        return Request(path: athletePath(athlete) + "/activities", query: query, name: "intervals.activities")
    }

    /// `GET /activity/{activityId}`: one activity.
    /// - Parameter id: The activity's id (`i12345`); it is escaped as one path segment.
    public static func activity(id: String) -> Request<Activity> {
        Request(path: activityPath(id), name: "intervals.activity")
    }

    /// `PUT /activity/{activityId}`: changes an activity's name or type; answers the new version.
    ///
    /// When it succeeds, the cache drops the activity (RFC 9111 invalidates the URL written)
    /// and every stored list of the athlete's activities, so cache-first reads do not keep
    /// serving the old version.
    /// - Parameters:
    ///   - id: The activity's id.
    ///   - update: The fields to change; unset ones are left out of the body.
    ///   - athlete: The athlete whose stored lists are dropped; ``currentAthlete`` by default.
    public static func updateActivity(id: String, _ update: ActivityUpdate, athlete: String = currentAthlete) -> Request<Activity> {
        var request = Request<Activity>(method: .put, path: activityPath(id), body: .json(update), name: "intervals.activity.update")
        request.options.invalidates = [athletePath(athlete) + "/activities"]
        return request
    }

    /// `GET /athlete/{athleteId}/wellness?oldest&newest`: one record per day between two days,
    /// both included, as a bare JSON array, oldest first.
    /// - Parameters:
    ///   - athlete: The athlete; ``currentAthlete`` by default.
    ///   - oldest: The first day.
    ///   - newest: The last day.
    public static func wellness(athlete: String = currentAthlete, oldest: CalendarDay, newest: CalendarDay) -> Request<[Wellness]> {
        Request(
            path: athletePath(athlete) + "/wellness",
            query: [URLQueryItem(name: "oldest", value: oldest.description), URLQueryItem(name: "newest", value: newest.description)],
            name: "intervals.wellness"
        )
    }

    /// `GET /athlete/{athleteId}/wellness/{YYYY-MM-DD}`: one day's record.
    /// - Parameters:
    ///   - athlete: The athlete; ``currentAthlete`` by default.
    ///   - day: The day.
    public static func wellness(athlete: String = currentAthlete, day: CalendarDay) -> Request<Wellness> {
        Request(path: wellnessDayPath(athlete, day), name: "intervals.wellness.day")
    }

    /// `PUT /athlete/{athleteId}/wellness/{YYYY-MM-DD}`: writes the fields a record sets for its
    /// day, leaving the others as they are; answers the day's record as stored.
    ///
    /// It is queueable: offline, the write waits in the client's offline queue (when it has one)
    /// and is delivered later, with an idempotency key. Writing a day twice leaves the same
    /// record, so the write is also safe to retry. When it succeeds, the cache drops the
    /// athlete's stored wellness.
    /// - Parameters:
    ///   - record: The day and the fields to write.
    ///   - athlete: The athlete; ``currentAthlete`` by default.
    ///   - idempotencyKey: The write's key; a new UUID by default.
    public static func updateWellness(
        _ record: Wellness, athlete: String = currentAthlete, idempotencyKey: String = UUID().uuidString
    ) -> Request<Wellness> {
        var request = Request<Wellness>(method: .put, path: wellnessDayPath(athlete, record.id), body: .json(record), name: "intervals.wellness.update")
        request.options.invalidates = [athletePath(athlete) + "/wellness"]
        request.options.isQueueable = true
        request.options.idempotencyKey = idempotencyKey
        request.options.bodyIsPersonalData = true
        return request
    }

    /// `PUT /athlete/{athleteId}/wellness-bulk`: writes many days in one call, each record
    /// changing the fields it sets for its day.
    ///
    /// Queueable and safe to retry, like ``updateWellness(_:athlete:idempotencyKey:)``.
    /// - Parameters:
    ///   - records: The days and their fields.
    ///   - athlete: The athlete; ``currentAthlete`` by default.
    ///   - idempotencyKey: The write's key; a new UUID by default.
    public static func updateWellnessBulk(
        _ records: [Wellness], athlete: String = currentAthlete, idempotencyKey: String = UUID().uuidString
    ) -> Request<Void> {
        var request = Request<Void>(method: .put, path: athletePath(athlete) + "/wellness-bulk", body: .json(records), name: "intervals.wellness.bulk")
        request.options.invalidates = [athletePath(athlete) + "/wellness"]
        request.options.isQueueable = true
        request.options.idempotencyKey = idempotencyKey
        request.options.bodyIsPersonalData = true
        return request
    }

    /// `/athlete/{athleteId}`, the id escaped as one path segment.
    static func athletePath(_ athlete: String) -> String {
        "/athlete/" + RequestTarget.pathSegment(athlete)
    }

    private static func activityPath(_ id: String) -> String {
        "/activity/" + RequestTarget.pathSegment(id)
    }

    private static func wellnessDayPath(_ athlete: String, _ day: CalendarDay) -> String {
        athletePath(athlete) + "/wellness/" + day.description
    }
}
