public import Courier
public import Foundation
public import IntervalsCore

/// One athlete's wellness, by day: ranges read through a cache policy (network-first by
/// default), single days read and written, many days written in one call.
///
/// Wellness is keyed by day rather than by id, so it is a repository of its own beside the
/// generic `Repository` that serves activities.
///
/// The VeloReady document reads wellness network-first: this morning's record may have
/// changed since the last read (a late sleep sync, a new resting heart rate), so every read
/// asks the server, and the stored copy is served only when the server cannot answer (a
/// transport failure or a 5xx). That needs an `HTTPCache` on the client; without one, every
/// read simply goes to the network. A write drops the athlete's stored wellness.
///
/// ```swift
/// let week = try await intervals.wellness.range(from: monday, through: sunday)
/// var today = Wellness(id: sunday)
/// today.weight = 70.4
/// try await intervals.wellness.save(today)            // PUT …/wellness/2026-11-22
/// try await intervals.wellness.save([monday, tuesday]) // PUT …/wellness-bulk
/// ```
public struct WellnessRepository: Sendable {
    /// The default cache policy for reads: `CachePolicy.networkFirst`, as the
    /// VeloReady document specifies.
    public static let defaultCachePolicy: CachePolicy = .networkFirst

    /// The client that sends the requests; its base URL must end in ``IntervalsEndpoints/root``.
    public let client: APIClient
    /// The athlete whose wellness this is; ``IntervalsEndpoints/currentAthlete`` by default.
    public let athlete: String
    /// The cache policy for reads; change it to read differently (for example
    /// `CachePolicy.http` to follow the server's `Cache-Control`).
    public var cachePolicy: CachePolicy

    /// Makes a wellness repository.
    /// - Parameters:
    ///   - client: The client; its base URL must end in ``IntervalsEndpoints/root``.
    ///   - athlete: The athlete; ``IntervalsEndpoints/currentAthlete`` by default.
    ///   - cachePolicy: The cache policy for reads (``defaultCachePolicy``, network-first, by default).
    public init(
        client: APIClient, athlete: String = IntervalsEndpoints.currentAthlete, cachePolicy: CachePolicy = WellnessRepository.defaultCachePolicy
    ) {
        self.client = client
        self.athlete = athlete
        self.cachePolicy = cachePolicy
    }

    /// The records from `start` through `end`, both included, oldest first; days without a
    /// record are left out.
    /// - Throws: `CourierError`.
    public func range(from start: CalendarDay, through end: CalendarDay) async throws -> [Wellness] {
        try await read(IntervalsEndpoints.wellness(athlete: athlete, oldest: start, newest: end))
    }

    /// The records of the days from the one `start` falls on through the one `end` falls on
    /// (in UTC), oldest first: the document's `fetchWellness(startDate:endDate:)`.
    /// - Throws: `CourierError`.
    public func range(from start: Date, to end: Date) async throws -> [Wellness] {
        try await range(from: CalendarDay(start), through: CalendarDay(end))
    }

    /// One day's record, read with `GET …/wellness/{day}`; `nil` when the server has none (404).
    /// - Throws: `CourierError`.
    public func day(_ day: CalendarDay) async throws -> Wellness? {
        do {
            return try await read(IntervalsEndpoints.wellness(athlete: athlete, day: day))
        } catch let error as CourierError where error.code == .notFound {
            return nil
        }
    }

    /// Writes the fields `record` sets for its day (`PUT …/wellness/{day}`) and answers the
    /// day as the server stored it. Queued while offline when the client has an offline queue.
    /// - Parameters:
    ///   - record: The day and the fields to write.
    ///   - idempotencyKey: The write's key; a new UUID by default.
    /// - Throws: `CourierError`; `CourierError.Code.queued` when it waits in the offline queue.
    @discardableResult
    public func save(_ record: Wellness, idempotencyKey: String = UUID().uuidString) async throws -> Wellness {
        try await client.value(for: IntervalsEndpoints.updateWellness(record, athlete: athlete, idempotencyKey: idempotencyKey))
    }

    /// Writes many days in one call (`PUT …/wellness-bulk`). Queued while offline when the
    /// client has an offline queue.
    /// - Parameters:
    ///   - records: The days and the fields to write for each.
    ///   - idempotencyKey: The write's key; a new UUID by default.
    /// - Throws: `CourierError`; `CourierError.Code.queued` when it waits in the offline queue.
    public func save(_ records: [Wellness], idempotencyKey: String = UUID().uuidString) async throws {
        try await client.send(IntervalsEndpoints.updateWellnessBulk(records, athlete: athlete, idempotencyKey: idempotencyKey))
    }

    private func read<Value: Decodable & Sendable>(_ request: Request<Value>) async throws -> Value {
        var request = request
        if request.options.cachePolicy == nil { request.options.cachePolicy = cachePolicy }
        return try await client.value(for: request)
    }
}
