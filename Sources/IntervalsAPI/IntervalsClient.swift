public import Courier
public import IntervalsCore

/// A client for an intervals-style training API: activities and wellness, read through
/// cache-backed repositories.
///
/// It takes an ``Courier/APIClient`` that already signs requests and, for caching, has an
/// ``Courier/HTTPCache`` configured:
///
/// ```swift
/// var configuration = ClientConfiguration(baseURL: url)
/// configuration.cache = HTTPCache(storage: TieredCacheStorage(memory: MemoryCacheStorage(), disk: sqliteStorage))
/// configuration.auth = session
/// let intervals = IntervalsClient(client: APIClient(configuration: configuration, transport: transport))
/// let recent = try await intervals.activities.list()
/// let ride = try await intervals.activities.get(id: recent[0].id)
/// ```
public struct IntervalsClient: Sendable {
    /// The client that sends the requests.
    public let client: APIClient
    /// Activities: list, get, and save (rename or retype).
    public let activities: Repository<Activity, String>
    /// Wellness by date range.
    public let wellness: WellnessRepository

    /// Makes a client.
    /// - Parameters:
    ///   - client: A client that signs requests for the API.
    ///   - cachePolicy: The cache policy for reads (``Courier/CachePolicy/http``: the server's
    ///     `Cache-Control`, `ETag` and `Last-Modified` decide).
    ///   - listLimit: How many activities ``Courier/Repository/list()`` asks for.
    public init(client: APIClient, cachePolicy: CachePolicy = .http, listLimit: Int = 100) {
        self.client = client
        self.activities = Repository(
            client: client,
            cachePolicy: cachePolicy,
            get: { IntervalsEndpoints.activity(id: $0) },
            list: { IntervalsEndpoints.activities(limit: listLimit) },
            save: { IntervalsEndpoints.updateActivity(id: $0.id, ActivityUpdate(name: $0.name, type: $0.type)) }
        )
        self.wellness = WellnessRepository(client: client, cachePolicy: cachePolicy)
    }

    /// Activities between two days, both included, newest first.
    /// - Throws: ``Courier/CourierError``.
    public func activities(from oldest: CalendarDay, through newest: CalendarDay, limit: Int = 500) async throws -> [Activity] {
        var request = IntervalsEndpoints.activities(oldest: oldest, newest: newest, limit: limit)
        request.options.cachePolicy = activities.cachePolicy
        return try await client.value(for: request)
    }
}
