public import Courier
public import CourierWebSocket
import Foundation
public import Logging
public import Observation
public import RadarCore

/// One radar kept up to date live: it merges the server's updates (new opinions, position
/// changes, refreshes) into the current `Radar` as they arrive over a WebSocket
/// that reconnects by itself.
///
/// The server sends the whole radar each time the socket opens, so the view converges again
/// after a drop. A SwiftUI view binds to it directly (it is `@Observable`); code without
/// SwiftUI follows ``snapshots()``.
///
/// ```swift
/// let live = RadarLiveView(radarId: "r_1", client: radar.client)
/// live.start()
/// for await snapshot in live.snapshots() {
///     print(snapshot.radar?.opinions.count ?? 0, snapshot.connection)
/// }
/// ```
///
/// Updates of a type this version does not know are skipped and logged (and counted in
/// ``skippedUpdates``), as are malformed ones: they never end the view.
@MainActor
@Observable
public final class RadarLiveView {
    /// The view at one moment, as ``snapshots()`` delivers it.
    public struct Snapshot: Sendable, Hashable {
        /// The radar, once the server has sent it.
        public var radar: Radar?
        /// The state of the connection.
        public var connection: WebSocketState
        /// How many updates were merged.
        public var appliedUpdates: Int
        /// How many messages were skipped (unknown types, malformed).
        public var skippedUpdates: Int
    }

    /// The radar as last known; `nil` until the server sends it.
    public private(set) var radar: Radar?
    /// The state of the connection.
    public private(set) var connectionState: WebSocketState = .idle
    /// How many updates were merged.
    public private(set) var appliedUpdates = 0
    /// How many messages were skipped: types this version does not know, or malformed.
    public private(set) var skippedUpdates = 0

    /// The id of the radar watched.
    @ObservationIgnored public nonisolated let radarId: String
    /// The connection the updates arrive on.
    @ObservationIgnored public nonisolated let connection: WebSocketConnection
    @ObservationIgnored private let logger: Logger
    @ObservationIgnored private var observers: [Int: AsyncStream<Snapshot>.Continuation] = [:]
    @ObservationIgnored private var nextObserver = 0
    @ObservationIgnored private var tasks: [Task<Void, Never>] = []

    /// Makes a view on an existing connection to the radar's update socket.
    /// - Parameters:
    ///   - radarId: The radar's id.
    ///   - connection: A connection to ``RadarLiveEndpoints/webSocketURL(baseURL:radarId:)``.
    ///   - logger: For skipped updates.
    public init(radarId: String, connection: WebSocketConnection, logger: Logger = Logger(label: "courier.radar.live")) {
        self.radarId = radarId
        self.connection = connection
        self.logger = logger
    }

    /// Makes a view that connects like `client`: to its server, signed by its
    /// `AuthSession` (a refused handshake renews the credential), learning the
    /// status of a declined handshake through its transport.
    /// - Parameters:
    ///   - radarId: The radar's id.
    ///   - client: The Radar API client whose base URL, session and transport to use.
    ///   - reconnect: When to come back after a drop.
    ///   - heartbeat: The ping interval, also the pong timeout.
    ///   - clock: Times the reconnect waits.
    ///   - logger: For skipped updates and reconnects.
    public convenience init(
        radarId: String,
        client: APIClient,
        reconnect: ReconnectPolicy = .default,
        heartbeat: Duration? = .seconds(30),
        clock: any CourierClock = SystemClock(),
        logger: Logger = Logger(label: "courier.radar.live")
    ) {
        let baseURL = client.configuration.baseURL
        let url = RadarLiveEndpoints.webSocketURL(baseURL: baseURL, radarId: radarId) ?? baseURL
        let configuration = WebSocketConfiguration(url: url, reconnect: reconnect, heartbeat: heartbeat)
        let connection = WebSocketConnection(
            configuration: configuration,
            engine: WSClientEngine(handshakeStatusProbe: client.transport, logger: logger),
            auth: client.configuration.auth,
            clock: clock,
            logger: logger
        )
        self.init(radarId: radarId, connection: connection, logger: logger)
    }

    /// The view now.
    public var snapshot: Snapshot {
        Snapshot(radar: radar, connection: connectionState, appliedUpdates: appliedUpdates, skippedUpdates: skippedUpdates)
    }

    /// The view now, then after every change, until ``stop()``.
    public func snapshots() -> AsyncStream<Snapshot> {
        let (stream, continuation) = AsyncStream.makeStream(of: Snapshot.self, bufferingPolicy: .bufferingNewest(64))
        nextObserver += 1
        let id = nextObserver
        observers[id] = continuation
        continuation.yield(snapshot)
        continuation.onTermination = { _ in
            Task { @MainActor [weak self] in self?.observers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Connects and starts merging updates. Calling it again does nothing.
    public func start() {
        guard tasks.isEmpty else { return }
        let connection = self.connection
        tasks.append(Task { [weak self] in
            for await message in connection.messages {
                self?.receive(message)
            }
        })
        tasks.append(Task { [weak self] in
            for await state in connection.stateChanges() {
                self?.connectionState = state
                self?.publish()
            }
        })
        connection.connect()
    }

    /// Closes the connection and ends the snapshot streams.
    public func stop() async {
        await connection.close()
        for task in tasks { await task.value }
        for observer in observers.values { observer.finish() }
        observers.removeAll()
    }

    /// Merges one message from the server.
    func receive(_ message: WebSocketMessage) {
        do {
            switch try RadarUpdateMessage.decode(from: message.data) {
            case .update(let update):
                guard update.radarId == radarId else {
                    skip("an update about radar \(update.radarId)")
                    return
                }
                if case .refresh(let fresh) = update {
                    radar = fresh
                } else if radar != nil {
                    radar?.apply(update)
                } else {
                    skip("a \(update.type) before the radar itself")
                    return
                }
                appliedUpdates += 1
                publish()
            case .unknown(let type, _):
                skip("an update of unknown type \(type)")
            }
        } catch {
            skip("a malformed update: \(error)")
        }
    }

    private func skip(_ what: String) {
        skippedUpdates += 1
        logger.info("radar live view skipped \(what)", metadata: ["radar": "\(radarId)"])
        publish()
    }

    private func publish() {
        let snapshot = self.snapshot
        for observer in observers.values { observer.yield(snapshot) }
    }
}
