public import Courier
import Foundation
public import Observation
public import RadarCore

/// The signed-in user's radar list as app state: the list, a loading flag and the last error.
///
/// Loading shows the cached list first, then the network's (``Courier/CachePolicy/staleWhileRevalidate``
/// through ``Courier/APIClient/cachedThenFresh(_:)``), so a list screen is never empty while
/// the network is slow. A SwiftUI view binds to it directly (it is `@Observable`); code
/// without SwiftUI follows ``snapshots()``.
///
/// ```swift
/// let service = RadarService(radar: radarClient)   // on a client with an HTTPCache
/// await service.load()                             // cached list, then the fresh one
/// for await snapshot in service.snapshots() { render(snapshot.radars) }
/// ```
@MainActor
@Observable
public final class RadarService {
    /// The state at one moment, as ``snapshots()`` delivers it.
    public struct Snapshot: Sendable {
        /// The radars shown.
        public var radars: [Radar]
        /// Whether a load is under way.
        public var isLoading: Bool
        /// The last load's failure, if it failed; the radars shown are then the last ones known.
        public var error: CourierError?
        /// Where the radars shown came from.
        public var source: CacheStatus?
    }

    /// The radars shown, newest first.
    public private(set) var radars: [Radar] = []
    /// Whether a load is under way.
    public private(set) var isLoading = false
    /// The last load's failure, if it failed.
    public private(set) var error: CourierError?
    /// Where ``radars`` came from: the cache (``Courier/CacheStatus/stale`` while a refresh runs),
    /// the network, or a revalidation.
    public private(set) var source: CacheStatus?

    @ObservationIgnored private let radar: RadarClient
    @ObservationIgnored private let pageSize: Int
    @ObservationIgnored private var observers: [Int: AsyncStream<Snapshot>.Continuation] = [:]
    @ObservationIgnored private var nextObserver = 0

    /// Makes a service.
    /// - Parameters:
    ///   - radar: The Radar client; give its ``Courier/APIClient`` an ``Courier/HTTPCache`` for
    ///     the cached-first behaviour.
    ///   - pageSize: How many radars to show.
    public init(radar: RadarClient, pageSize: Int = 20) {
        self.radar = radar
        self.pageSize = pageSize
    }

    /// The state now.
    public var snapshot: Snapshot {
        Snapshot(radars: radars, isLoading: isLoading, error: error, source: source)
    }

    /// Loads the list: the cached one at once when there is one, then the network's.
    ///
    /// A failure is kept in ``error`` (never thrown), and the radars already shown stay.
    public func load() async {
        isLoading = true
        error = nil
        publish()
        do {
            for try await page in radar.client.cachedThenFresh(RadarEndpoints.list(limit: pageSize)) {
                radars = page.value.items
                source = page.metrics.cacheStatus
                publish()
            }
        } catch let failure as CourierError {
            error = failure
        } catch {
            self.error = CourierError(code: .transportFailed, message: "the radar list could not be loaded", underlying: error)
        }
        isLoading = false
        publish()
    }

    /// Creates a radar and reloads the list (the write invalidated the cached list).
    /// - Throws: ``Courier/CourierError``.
    @discardableResult
    public func create(topic: String, isPublic: Bool? = nil) async throws -> Radar {
        let created = try await radar.create(topic: topic, isPublic: isPublic)
        await load()
        return created
    }

    /// Deletes a radar and removes it from the list at once.
    /// - Throws: ``Courier/CourierError``.
    public func delete(id: String) async throws {
        try await radar.delete(id: id)
        radars.removeAll { $0.id == id }
        publish()
    }

    /// Refreshes a radar and puts the new version in the list.
    /// - Throws: ``Courier/CourierError``.
    @discardableResult
    public func refresh(id: String) async throws -> Radar {
        let refreshed = try await radar.refresh(id: id)
        if let index = radars.firstIndex(where: { $0.id == id }) { radars[index] = refreshed }
        publish()
        return refreshed
    }

    /// The state now, then after every change, for code without SwiftUI. Ends when the
    /// caller stops iterating.
    public func snapshots() -> AsyncStream<Snapshot> {
        let id = nextObserver
        nextObserver += 1
        let (stream, continuation) = AsyncStream<Snapshot>.makeStream(bufferingPolicy: .bufferingNewest(32))
        observers[id] = continuation
        continuation.yield(snapshot)
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.observers[id] = nil }
        }
        return stream
    }

    private func publish() {
        let current = snapshot
        for continuation in observers.values { continuation.yield(current) }
    }
}
