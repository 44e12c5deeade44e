public import Courier
public import IntervalsCore

/// Wellness records by date range, read through a cache policy.
///
/// Wellness is keyed by day rather than by id and is read-only here, so it is a repository of
/// its own beside the generic ``Courier/Repository`` that serves activities.
///
/// ```swift
/// let week = try await intervals.wellness.range(from: monday, through: sunday)
/// ```
public struct WellnessRepository: Sendable {
    /// The client that sends the requests.
    public let client: APIClient
    /// The cache policy for reads.
    public var cachePolicy: CachePolicy

    /// Makes a wellness repository.
    /// - Parameters:
    ///   - client: The client.
    ///   - cachePolicy: The cache policy for reads (``Courier/CachePolicy/http`` by default).
    public init(client: APIClient, cachePolicy: CachePolicy = .http) {
        self.client = client
        self.cachePolicy = cachePolicy
    }

    /// The records from `start` through `end`, oldest first.
    /// - Throws: ``Courier/CourierError``; ``Courier/CourierError/Code/clientError`` (400) when
    ///   the range is reversed or longer than the server allows.
    public func range(from start: CalendarDay, through end: CalendarDay) async throws -> [Wellness] {
        var request = IntervalsEndpoints.wellness(start: start, end: end)
        request.options.cachePolicy = cachePolicy
        return try await client.value(for: request)
    }

    /// One day's record, or `nil` when nothing was logged that day.
    /// - Throws: ``Courier/CourierError``.
    public func day(_ day: CalendarDay) async throws -> Wellness? {
        try await range(from: day, through: day).first
    }
}
