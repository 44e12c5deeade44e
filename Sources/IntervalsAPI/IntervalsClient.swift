public import Courier
public import Foundation
public import IntervalsCore

/// A client for intervals.icu API v1: one athlete's activities and wellness, read through
/// cache-backed repositories, as the VeloReady document describes, on the service's real
/// athlete-scoped paths.
///
/// Make it from the server's address; `https://intervals.icu` and `https://intervals.icu/api/v1`
/// both work, because the address is normalised with ``IntervalsEndpoints/root``:
///
/// ```swift
/// let intervals = IntervalsClient(baseURL: URL(string: "https://intervals.icu")!, transport: transport, auth: .apiKey(key)) {
///     $0.cache = HTTPCache(storage: TieredCacheStorage(memory: MemoryCacheStorage(), disk: sqliteStorage))
/// }
/// let recent = try await intervals.activities.list()          // the last 90 days
/// let ride = try await intervals.activities.get(id: recent[0].id)
/// let week = try await intervals.wellness.range(from: monday, through: sunday)
/// ```
///
/// ## The athlete
/// Every list is scoped to an athlete. ``athlete`` is `"0"` by default, which the service reads
/// as "the athlete this credential belongs to"; a coach's app passes an athlete's own id.
///
/// ## Cache policies
/// The repositories read as the document specifies, given an `HTTPCache` on the client:
/// - ``activities`` lists and gets **cache-first** (``defaultActivitiesPolicy``): any stored copy
///   is served, however old, and the network is asked only when nothing is stored. A successful
///   save drops the stored activity and every stored list of the athlete's activities.
/// - ``wellness`` reads **network-first** (``WellnessRepository/defaultCachePolicy``): the server
///   is always asked, and the stored copy is served only when it cannot answer.
///
/// Both are defaults: pass other policies to the initializer, or set
/// `Repository.cachePolicy` and ``WellnessRepository/cachePolicy`` later.
public struct IntervalsClient: Sendable {
    /// The default cache policy for listing and getting activities:
    /// `CachePolicy.cacheFirst`, as the VeloReady document specifies.
    public static let defaultActivitiesPolicy: CachePolicy = .cacheFirst
    /// How many days back `activities.list()` reads by default: 90.
    public static let defaultListDays = 90

    /// The client that sends the requests; its base URL ends in ``IntervalsEndpoints/root``.
    public let client: APIClient
    /// The session holding the credential, when the client was made with an ``IntervalsAuth``.
    public let session: AuthSession?
    /// The athlete whose data this client reads: ``IntervalsEndpoints/currentAthlete`` by default.
    public let athlete: String
    /// Activities: list (the last ``defaultListDays`` days, newest first), get, and save
    /// (rename or retype); cache-first by default.
    public var activities: Repository<Activity, String>
    /// Wellness by day: ranges, single days, and writes; network-first by default.
    public var wellness: WellnessRepository

    /// Makes a client on an `APIClient` made elsewhere (one that signs requests and has an
    /// `HTTPCache`, say).
    ///
    /// The endpoint paths are relative to ``IntervalsEndpoints/root``, so the client's base URL
    /// must end in it (`https://intervals.icu/api/v1`). Make its configuration with
    /// `IntervalsEndpoints.root.baseURL(for: serverURL)`, or use
    /// ``init(baseURL:transport:auth:athlete:activitiesPolicy:wellnessPolicy:listDays:listLimit:configure:)``, which does.
    /// - Parameters:
    ///   - client: A client for the API whose base URL ends in ``IntervalsEndpoints/root``.
    ///   - session: The client's auth session, if it has one, to expose as ``session``.
    ///   - athlete: The athlete; ``IntervalsEndpoints/currentAthlete`` by default.
    ///   - activitiesPolicy: The cache policy for listing and getting activities.
    ///   - wellnessPolicy: The cache policy for wellness reads.
    ///   - listDays: How many days back `activities.list()` reads (today included).
    ///   - listLimit: The most activities `activities.list()` asks for (`limit`); none by default.
    public init(
        client: APIClient,
        session: AuthSession? = nil,
        athlete: String = IntervalsEndpoints.currentAthlete,
        activitiesPolicy: CachePolicy = IntervalsClient.defaultActivitiesPolicy,
        wellnessPolicy: CachePolicy = WellnessRepository.defaultCachePolicy,
        listDays: Int = IntervalsClient.defaultListDays,
        listLimit: Int? = nil
    ) {
        self.client = client
        self.session = session ?? client.configuration.auth
        self.athlete = athlete
        let clock = client.configuration.clock
        self.activities = Repository(
            client: client,
            cachePolicy: activitiesPolicy,
            get: { IntervalsEndpoints.activity(id: $0) },
            list: {
                let today = CalendarDay(clock.date)
                return IntervalsEndpoints.activities(athlete: athlete, oldest: today.adding(days: 1 - max(1, listDays)), newest: today, limit: listLimit)
            },
            save: { IntervalsEndpoints.updateActivity(id: $0.id, ActivityUpdate(name: $0.name, type: $0.type), athlete: athlete) }
        )
        self.wellness = WellnessRepository(client: client, athlete: athlete, cachePolicy: wellnessPolicy)
    }

    /// Makes a client for a server, normalising its address with ``IntervalsEndpoints/root``
    /// and signing every call with `auth`.
    ///
    /// `https://intervals.icu` and `https://intervals.icu/api/v1` give the same client; so does
    /// a base URL set by `configure`, which is normalised after it runs.
    /// - Parameters:
    ///   - baseURL: The server's address, with or without `/api/v1`.
    ///   - transport: The engine.
    ///   - auth: The API key or OAuth credential; `nil` keeps whatever `configure` sets
    ///     (`ClientConfiguration.auth`), or sends calls unsigned.
    ///   - athlete: The athlete; ``IntervalsEndpoints/currentAthlete`` by default.
    ///   - activitiesPolicy: The cache policy for listing and getting activities.
    ///   - wellnessPolicy: The cache policy for wellness reads.
    ///   - listDays: How many days back `activities.list()` reads (today included).
    ///   - listLimit: The most activities `activities.list()` asks for (`limit`); none by default.
    ///   - configure: Changes to the default configuration: the cache, middleware, the offline
    ///     queue, the retry policy, the clock.
    public init(
        baseURL: URL,
        transport: any Transport,
        auth: IntervalsAuth? = nil,
        athlete: String = IntervalsEndpoints.currentAthlete,
        activitiesPolicy: CachePolicy = IntervalsClient.defaultActivitiesPolicy,
        wellnessPolicy: CachePolicy = WellnessRepository.defaultCachePolicy,
        listDays: Int = IntervalsClient.defaultListDays,
        listLimit: Int? = nil,
        configure: (inout ClientConfiguration) -> Void = { _ in }
    ) {
        var configuration = ClientConfiguration(baseURL: IntervalsEndpoints.root.baseURL(for: baseURL))
        configure(&configuration)
        configuration.baseURL = IntervalsEndpoints.root.baseURL(for: configuration.baseURL)
        var session: AuthSession?
        if let auth {
            // The token endpoint is outside /api/v1, and its calls are never signed or queued.
            var tokenConfiguration = configuration
            tokenConfiguration.baseURL = IntervalsEndpoints.root.serverURL(for: configuration.baseURL)
            tokenConfiguration.auth = nil
            tokenConfiguration.offlineQueue = nil
            tokenConfiguration.cache = nil
            let made = auth.makeSession(tokenClient: APIClient(configuration: tokenConfiguration, transport: transport), clock: configuration.clock)
            configuration.auth = made
            session = made
        }
        self.init(
            client: APIClient(configuration: configuration, transport: transport),
            session: session,
            athlete: athlete,
            activitiesPolicy: activitiesPolicy,
            wellnessPolicy: wellnessPolicy,
            listDays: listDays,
            listLimit: listLimit
        )
    }

    /// Activities between two days, both included, newest first, read with the activities'
    /// cache policy.
    /// - Parameters:
    ///   - oldest: The first day.
    ///   - newest: The last day.
    ///   - limit: The most activities returned; none by default.
    /// - Throws: `CourierError`.
    public func activities(from oldest: CalendarDay, through newest: CalendarDay, limit: Int? = nil) async throws -> [Activity] {
        var request = IntervalsEndpoints.activities(athlete: athlete, oldest: oldest, newest: newest, limit: limit)
        request.options.cachePolicy = activities.cachePolicy
        return try await client.value(for: request)
    }
}
