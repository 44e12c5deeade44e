import Foundation
import IntervalsCore

/// An activity as the server keeps it: the record it sends, the day it falls on, and when it
/// last changed.
///
/// intervals.icu's activity JSON has no "last modified" field, so the time of the last change
/// is kept here, beside the record, for the `Last-Modified` header only.
struct StoredActivity: Sendable {
    /// The record as `GET /api/v1/athlete/{id}/activities` sends it.
    var activity: Activity
    /// The day (UTC) the activity started on, for the `oldest` and `newest` filters.
    let day: CalendarDay
    /// When the record last changed, to the whole second so that it survives an HTTP date.
    var updatedAt: Date
}
