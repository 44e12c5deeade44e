public import Courier
public import Foundation
public import IntervalsCore

/// Wellness records by date range, read through a cache policy: network-first by default.
///
/// Wellness is keyed by day rather than by id and is read-only here, so it is a repository of
/// its own beside the generic `Repository` that serves activities.
///
/// The VeloReady document reads wellness network-first: this morning's record may have
/// changed since the last read (a late sleep sync, a new resting heart rate), so every read
/// asks the server, and the stored copy is served only when the server cannot answer (a
/// transport failure or a 5xx). That needs an `HTTPCache` on the client; without
/// one, every read simply goes to the network.
///
/// ```swift
/// let week = try await intervals.wellness.range(from: monday, through: sunday)
/// ```
public struct WellnessRepository: Sendable {
    /// The default cache policy for reads: `CachePolicy.networkFirst`, as the
    /// VeloReady document specifies.
    public static let defaultCachePolicy: CachePolicy = .networkFirst

    /// The client that sends the requests; its base URL must end in ``IntervalsEndpoints/root``.
    public let client: APIClient
    /// The cache policy for reads; change it to read differently (for example
    /// `CachePolicy.http` to follow the server's `Cache-Control`).
    public var cachePolicy: CachePolicy

    /// Makes a wellness repository.
    /// - Parameters:
    ///   - client: The client; its base URL must end in ``IntervalsEndpoints/root``.
    ///   - cachePolicy: The cache policy for reads (``defaultCachePolicy``, network-first, by default).
    public init(client: APIClient, cachePolicy: CachePolicy = WellnessRepository.defaultCachePolicy) {
        self.client = client
        self.cachePolicy = cachePolicy
    }

    /// The records from `start` through `end`, both included, oldest first.
    /// - Throws: `CourierError`; `CourierError.Code.clientError` (400) when
    ///   the range is reversed or longer than the server allows.
    public func range(from start: CalendarDay, through end: CalendarDay) async throws -> [Wellness] {
        try await read(IntervalsEndpoints.wellness(start: start, end: end))
    }

    /// The records of the days from the one `start` falls on through the one `end` falls on
    /// (in UTC), oldest first: the document's `fetchWellness(startDate:endDate:)`.
    /// - Throws: `CourierError`; `CourierError.Code.clientError` (400) when
    ///   the range is reversed or longer than the server allows.
    public func range(from start: Date, to end: Date) async throws -> [Wellness] {
        try await read(IntervalsEndpoints.wellness(start: start, end: end))
    }

    /// One day's record, or `nil` when nothing was logged that day.
    /// - Throws: `CourierError`.
    public func day(_ day: CalendarDay) async throws -> Wellness? {
        try await range(from: day, through: day).first
    }

    private func read(_ request: Request<[Wellness]>) async throws -> [Wellness] {
        var request = request
        if request.options.cachePolicy == nil { request.options.cachePolicy = cachePolicy }
        return try await client.value(for: request)
    }
}
