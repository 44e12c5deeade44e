public import Courier
import Foundation

extension IntervalsEndpoints {
    /// The offline queue's rule for wellness (seed 001's batching): queued one-day writes
    /// (`PUT …/athlete/{id}/wellness/{YYYY-MM-DD}`) of one athlete go as one
    /// `PUT …/athlete/{id}/wellness-bulk` of their records, in order, at most `maxDays` days a
    /// call. Two writes of the same day become one record, the later one's fields over the
    /// earlier's. Each write is still reported delivered or dead-lettered on its own.
    ///
    /// ```swift
    /// let queue = OfflineQueue(storage: storage, batchers: [IntervalsEndpoints.wellnessBatcher()])
    /// ```
    /// - Parameter maxDays: The most records one bulk call carries (100 by default).
    public static func wellnessBatcher(maxDays: Int = 100) -> WriteBatcher {
        WriteBatcher(
            name: "intervals-wellness",
            maxWrites: maxDays,
            batchKey: { write in
                guard write.method == "PUT", let (athletePath, _) = dayWrite(write.url) else { return nil }
                return athletePath
            },
            combine: { writes in
                guard let first = writes.first, let (athletePath, _) = dayWrite(first.url) else {
                    throw CourierError(code: .invalidRequest, message: "not a wellness day write")
                }
                var days: [String] = []
                var records: [String: [String: Any]] = [:]
                for write in writes {
                    guard let (_, day) = dayWrite(write.url),
                          let record = try JSONSerialization.jsonObject(with: write.body) as? [String: Any] else {
                        throw CourierError(code: .invalidRequest, message: "a queued wellness write is not a record")
                    }
                    if records[day] == nil { days.append(day) }
                    records[day, default: ["id": day]].merge(record) { _, later in later }
                }
                let body = try JSONSerialization.data(withJSONObject: days.compactMap { records[$0] }, options: [.sortedKeys])
                return WriteBatcher.Combined(method: "PUT", url: athletePath + "/wellness-bulk", body: body)
            }
        )
    }

    /// The athlete's URL and the day of a one-day wellness write's URL
    /// (`https://intervals.icu/api/v1/athlete/0/wellness/2026-11-20`), or `nil` for another URL.
    static func dayWrite(_ url: String) -> (athleteURL: String, day: String)? {
        guard !url.contains("?"), let slash = url.lastIndex(of: "/") else { return nil }
        let day = String(url[url.index(after: slash)...])
        let prefix = url[..<slash]
        guard CalendarDayText.isDay(day), prefix.hasSuffix("/wellness") else { return nil }
        let athleteURL = String(prefix.dropLast("/wellness".count))
        guard athleteURL.range(of: "/athlete/") != nil else { return nil }
        return (athleteURL, day)
    }
}

/// `YYYY-MM-DD` checks without the model (the batcher reads stored URLs as text).
enum CalendarDayText {
    static func isDay(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 3 && parts[0].count == 4 && parts[1].count == 2 && parts[2].count == 2
            && parts.allSatisfy { $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }
}
