public import Courier
import Foundation
public import Observation
public import RadarCore
import HTTPTypes

/// The signed-in user's radar list as app state: the list, the writes still on their way, a
/// loading flag and the last error.
///
/// Loading shows the cached list first, then the network's (`CachePolicy.staleWhileRevalidate`
/// through `APIClient.cachedThenFresh(_:)`), so a list screen is never empty while
/// the network is slow; ``load(forceRefresh:)`` with `true` (pull to refresh) asks the server.
/// Writes change the list at once, as seed 000 has it: a created radar goes to the top, a
/// deleted one goes, a refreshed one is replaced. Every write also invalidates the cached list
/// (all its pages), so the next load never brings back what a write changed.
///
/// With an `OfflineQueue` on the client, a write the server cannot receive is queued
/// (durably, with an idempotency key) and shows in ``pending`` at once; a pending delete hides
/// its radar. When the queue delivers it, the service applies the server's answer; when the
/// queue gives it up (dead letter), the service undoes the change and sets ``error``.
///
/// A SwiftUI view binds to it directly (it is `@Observable`); code without SwiftUI follows
/// ``snapshots()``.
///
/// ```swift
/// let service = RadarService(radar: radarClient)   // on a client with an HTTPCache
/// await service.load()                             // cached list, then the fresh one
/// try await service.create(topic: "Is Swift on the server ready?")
/// for await snapshot in service.snapshots() { render(snapshot.radars, snapshot.pending) }
/// ```
@MainActor
@Observable
public final class RadarService {
    /// A write that was queued and is not delivered yet.
    public struct PendingWrite: Sendable, Hashable, Identifiable {
        /// What the write does.
        public enum Kind: Sendable, Hashable {
            /// Creates a radar for this topic.
            case create(topic: String)
            /// Deletes this radar.
            case delete(radarId: String)
            /// Refreshes this radar.
            case refresh(radarId: String)
        }

        /// The queued write's id (`QueuedRequest.id`).
        public var id: String
        /// What it does.
        public var kind: Kind
    }

    /// The state at one moment, as ``snapshots()`` delivers it.
    public struct Snapshot: Sendable {
        /// The radars shown.
        public var radars: [Radar]
        /// Writes queued and not yet delivered, oldest first.
        public var pending: [PendingWrite]
        /// Whether a load is under way.
        public var isLoading: Bool
        /// The last failure (a load, or a queued write given up), if any.
        public var error: CourierError?
        /// Where the radars shown came from.
        public var source: CacheStatus?
    }

    /// The radars shown, newest first; radars with a pending delete are left out.
    public private(set) var radars: [Radar] = []
    /// Writes queued and not yet delivered, oldest first.
    public private(set) var pending: [PendingWrite] = []
    /// Whether a load is under way.
    public private(set) var isLoading = false
    /// The last failure: a load's, or a queued write's that the queue gave up on.
    public private(set) var error: CourierError?
    /// Where ``radars`` came from: the cache (`CacheStatus.stale` while a refresh runs),
    /// the network, or a revalidation.
    public private(set) var source: CacheStatus?

    @ObservationIgnored private let radar: RadarClient
    @ObservationIgnored private let pageSize: Int
    @ObservationIgnored private var observers: [Int: AsyncStream<Snapshot>.Continuation] = [:]
    @ObservationIgnored private var nextObserver = 0
    /// Radars hidden by a pending delete, with where they stood, to put back on a dead letter.
    @ObservationIgnored private var hiddenByDelete: [String: (radar: Radar, index: Int)] = [:]
    @ObservationIgnored private var queueListener: Task<Void, Never>?

    /// Makes a service.
    /// - Parameters:
    ///   - radar: The Radar client; give its `APIClient` an `HTTPCache` for
    ///     the cached-first behaviour, and an `OfflineQueue` for writes made offline.
    ///   - pageSize: How many radars to show.
    public init(radar: RadarClient, pageSize: Int = 20) {
        self.radar = radar
        self.pageSize = pageSize
        if let queue = radar.client.configuration.offlineQueue {
            let events = queue.events()
            queueListener = Task { [weak self] in
                for await event in events {
                    guard let self else { return }
                    await self.apply(event, from: queue)
                }
            }
        }
    }

    isolated deinit {
        queueListener?.cancel()
    }

    /// The state now.
    public var snapshot: Snapshot {
        Snapshot(radars: radars, pending: pending, isLoading: isLoading, error: error, source: source)
    }

    /// Loads the list. By default the cached one comes at once when there is one, then the
    /// network's; with `forceRefresh` (pull to refresh) a fresh cached copy is not used: the
    /// server is asked (a revalidation when the cache holds the list).
    ///
    /// A failure is kept in ``error`` (never thrown), and the radars already shown stay.
    /// - Parameter forceRefresh: Whether to ask the server even when the cached list is fresh.
    public func load(forceRefresh: Bool = false) async {
        isLoading = true
        error = nil
        publish()
        do {
            if forceRefresh {
                var request = RadarEndpoints.list(limit: pageSize)
                request.options.cachePolicy = .noCache
                show(try await radar.client.send(request))
            } else {
                for try await page in radar.client.cachedThenFresh(RadarEndpoints.list(limit: pageSize)) {
                    show(page)
                }
            }
        } catch let failure as CourierError {
            error = failure
        } catch {
            self.error = CourierError(code: .transportFailed, message: "the radar list could not be loaded", underlying: error)
        }
        isLoading = false
        publish()
    }

    /// Creates a radar and puts it at the top of the list at once.
    ///
    /// With an offline queue and no server, the write is queued and shows in ``pending``;
    /// the radar joins the list when the queue delivers it.
    /// - Returns: The new radar, or `nil` when the write was queued.
    /// - Throws: `CourierError`.
    @discardableResult
    public func create(topic: String, isPublic: Bool? = nil) async throws -> Radar? {
        switch try await radar.client.sendOrQueue(RadarEndpoints.create(topic: topic, isPublic: isPublic)) {
        case .delivered(let response):
            insertAtTop(response.value)
            publish()
            return response.value
        case .queued(let id):
            pending.append(PendingWrite(id: id, kind: .create(topic: topic)))
            publish()
            return nil
        }
    }

    /// Deletes a radar and removes it from the list at once (queued when offline: it stays
    /// hidden, and comes back if the queue gives the write up).
    /// - Throws: `CourierError`.
    public func delete(id: String) async throws {
        switch try await radar.client.sendOrQueue(RadarEndpoints.delete(id: id)) {
        case .delivered:
            radars.removeAll { $0.id == id }
        case .queued(let queuedID):
            if let index = radars.firstIndex(where: { $0.id == id }) {
                hiddenByDelete[queuedID] = (radars[index], index)
                radars.remove(at: index)
            }
            pending.append(PendingWrite(id: queuedID, kind: .delete(radarId: id)))
        }
        publish()
    }

    /// Refreshes a radar and puts the new version in the list (queued when offline).
    /// - Returns: The refreshed radar, or `nil` when the write was queued.
    /// - Throws: `CourierError`.
    @discardableResult
    public func refresh(id: String) async throws -> Radar? {
        switch try await radar.client.sendOrQueue(RadarEndpoints.refresh(id: id)) {
        case .delivered(let response):
            replace(response.value)
            publish()
            return response.value
        case .queued(let queuedID):
            pending.append(PendingWrite(id: queuedID, kind: .refresh(radarId: id)))
            publish()
            return nil
        }
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

    // MARK: - Reconciling queued writes

    /// Applies what the queue reports about one of this service's writes.
    private func apply(_ event: QueueEvent, from queue: OfflineQueue) async {
        switch event {
        case .delivered(let id, _, let body):
            guard let write = takePending(id) else { return }
            hiddenByDelete[id] = nil
            let decoded = try? radar.client.configuration.decoder.decode(Radar.self, from: body)
            switch write.kind {
            case .create: if let decoded { insertAtTop(decoded) }
            case .refresh: if let decoded { replace(decoded) }
            case .delete: break
            }
        case .deadLettered(let id, let reason), .dropped(let id, let reason):
            guard let write = takePending(id) else { return }
            if let hidden = hiddenByDelete.removeValue(forKey: id) {
                radars.insert(hidden.radar, at: min(hidden.index, radars.count))
            }
            let status = try? await queue.deadLetters().first { $0.id == id }?.deadLetterStatus
            var failure = CourierError(
                code: status.map { CourierError.Code.forStatus(.init(code: $0)) } ?? .clientError,
                message: "the queued \(Self.describe(write.kind)) was given up: \(reason)"
            )
            failure.status = status.map { .init(code: $0) }
            failure.queuedRequestID = id
            error = failure
        case .queued, .failed:
            return
        }
        publish()
    }

    private func takePending(_ id: String) -> PendingWrite? {
        guard let index = pending.firstIndex(where: { $0.id == id }) else { return nil }
        return pending.remove(at: index)
    }

    private static func describe(_ kind: PendingWrite.Kind) -> String {
        switch kind {
        case .create(let topic): "creation of \"\(topic)\""
        case .delete(let radarId): "deletion of \(radarId)"
        case .refresh(let radarId): "refresh of \(radarId)"
        }
    }

    // MARK: - The list

    private func show(_ page: Response<[Radar]>) {
        let hidden = Set(pending.compactMap { if case .delete(let radarId) = $0.kind { radarId } else { nil } })
        radars = page.value.filter { !hidden.contains($0.id) }
        source = page.metrics.cacheStatus
        publish()
    }

    private func insertAtTop(_ created: Radar) {
        radars.removeAll { $0.id == created.id }
        radars.insert(created, at: 0)
    }

    private func replace(_ refreshed: Radar) {
        if let index = radars.firstIndex(where: { $0.id == refreshed.id }) { radars[index] = refreshed }
    }

    private func publish() {
        let current = snapshot
        for continuation in observers.values { continuation.yield(current) }
    }
}
