public import Courier
public import Foundation
public import IntervalsCore

/// A client for an intervals-style training API: activities and wellness, read through
/// cache-backed repositories, as the VeloReady document describes.
///
/// Make it from the server's address; `https://intervals.icu` and `https://intervals.icu/api/v1`
/// both work, because the address is normalised with ``IntervalsEndpoints/root``:
///
/// ```swift
/// let intervals = IntervalsClient(baseURL: URL(string: "https://intervals.icu")!, transport: transport) {
///     $0.cache = HTTPCache(storage: TieredCacheStorage(memory: MemoryCacheStorage(), disk: sqliteStorage))
///     $0.auth = session
/// }
/// let recent = try await intervals.activities.list()
/// let ride = try await intervals.activities.get(id: recent[0].id)
/// let week = try await intervals.wellness.range(from: monday, through: sunday)
/// ```
///
/// ## Cache policies
/// The repositories read as the document specifies, given an `HTTPCache` on the client:
/// - ``activities`` lists and gets **cache-first** (``defaultActivitiesPolicy``): any stored copy
///   is served, however old, and the network is asked only when nothing is stored. A successful
///   save drops every stored activity and list, so the next read fetches the new version.
/// - ``wellness`` reads **network-first** (``WellnessRepository/defaultCachePolicy``): the server
///   is always asked, and the stored copy is served only when it cannot answer.
///
/// Both are defaults: pass other policies to the initializer, or set
/// `Repository.cachePolicy` and ``WellnessRepository/cachePolicy`` later. Without a
/// cache on the client, every read goes to the network.
public struct IntervalsClient: Sendable {
    /// The default cache policy for listing and getting activities:
    /// `CachePolicy.cacheFirst`, as the VeloReady document specifies.
    public static let defaultActivitiesPolicy: CachePolicy = .cacheFirst

    /// The client that sends the requests; its base URL ends in ``IntervalsEndpoints/root``.
    public let client: APIClient
    /// Activities: list, get, and save (rename or retype); cache-first by default.
    public var activities: Repository<Activity, String>
    /// Wellness by date range; network-first by default.
    public var wellness: WellnessRepository

    /// Makes a client on an `APIClient` made elsewhere (one that signs requests and
    /// has an `HTTPCache`, say).
    ///
    /// The endpoint paths are relative to ``IntervalsEndpoints/root``, so the client's base URL
    /// must end in it (`https://intervals.icu/api/v1`, not `https://intervals.icu`). Make its
    /// configuration with `IntervalsEndpoints.root.baseURL(for: serverURL)`, or use
    /// ``init(baseURL:transport:activitiesPolicy:wellnessPolicy:listLimit:configure:)``, which does.
    /// - Parameters:
    ///   - client: A client for the API whose base URL ends in ``IntervalsEndpoints/root``.
    ///   - activitiesPolicy: The cache policy for listing and getting activities
    ///     (``defaultActivitiesPolicy``, cache-first, by default).
    ///   - wellnessPolicy: The cache policy for wellness reads
    ///     (``WellnessRepository/defaultCachePolicy``, network-first, by default).
    ///   - listLimit: How many activities `Repository.list()` asks for with `limit`;
    ///     `nil` (the default) sends the document's plain `GET /activities`.
    public init(
        client: APIClient,
        activitiesPolicy: CachePolicy = IntervalsClient.defaultActivitiesPolicy,
        wellnessPolicy: CachePolicy = WellnessRepository.defaultCachePolicy,
        listLimit: Int? = nil
    ) {
        self.client = client
        self.activities = Repository(
            client: client,
            cachePolicy: activitiesPolicy,
            get: { IntervalsEndpoints.activity(id: $0) },
            list: { IntervalsEndpoints.activities(limit: listLimit) },
            save: { IntervalsEndpoints.updateActivity(id: $0.id, ActivityUpdate(name: $0.name, type: $0.type)) }
        )
        self.wellness = WellnessRepository(client: client, cachePolicy: wellnessPolicy)
    }

    /// Makes a client for a server, normalising its address with ``IntervalsEndpoints/root``.
    ///
    /// `https://intervals.icu` and `https://intervals.icu/api/v1` give the same client; so does
    /// a base URL set by `configure`, which is normalised after it runs.
    /// - Parameters:
    ///   - baseURL: The server's address, with or without `/api/v1`.
    ///   - transport: The engine.
    ///   - activitiesPolicy: The cache policy for listing and getting activities
    ///     (``defaultActivitiesPolicy``, cache-first, by default).
    ///   - wellnessPolicy: The cache policy for wellness reads
    ///     (``WellnessRepository/defaultCachePolicy``, network-first, by default).
    ///   - listLimit: How many activities `Repository.list()` asks for with `limit`;
    ///     `nil` (the default) sends the document's plain `GET /activities`.
    ///   - configure: Changes to the default configuration: the cache, the auth session,
    ///     middleware, the retry policy, the clock.
    public init(
        baseURL: URL,
        transport: any Transport,
        activitiesPolicy: CachePolicy = IntervalsClient.defaultActivitiesPolicy,
        wellnessPolicy: CachePolicy = WellnessRepository.defaultCachePolicy,
        listLimit: Int? = nil,
        configure: (inout ClientConfiguration) -> Void = { _ in }
    ) {
        var configuration = ClientConfiguration(baseURL: IntervalsEndpoints.root.baseURL(for: baseURL))
        configure(&configuration)
        configuration.baseURL = IntervalsEndpoints.root.baseURL(for: configuration.baseURL)
        self.init(
            client: APIClient(configuration: configuration, transport: transport),
            activitiesPolicy: activitiesPolicy,
            wellnessPolicy: wellnessPolicy,
            listLimit: listLimit
        )
    }

    /// Activities between two days, both included, newest first, read with the activities'
    /// cache policy.
    ///
    /// This sends intervals.icu's `oldest`, `newest` and `limit` filters, which the VeloReady
    /// document does not define.
    /// - Throws: `CourierError`.
    public func activities(from oldest: CalendarDay, through newest: CalendarDay, limit: Int = 500) async throws -> [Activity] {
        var request = IntervalsEndpoints.activities(oldest: oldest, newest: newest, limit: limit)
        request.options.cachePolicy = activities.cachePolicy
        return try await client.value(for: request)
    }
}
