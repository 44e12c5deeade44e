import Courier
import CourierAsyncHTTPClient
import CourierWebSocket
import Foundation
import Logging
import RadarAPI
import RadarCore

/// The soak's one WebSocket: the live updates of a radar made for the run, kept open (and
/// reconnected after drops) for the whole run, with its messages counted.
///
/// The server sends the whole radar each time the socket opens, and updates when the radar
/// is refreshed; ``refresh(every:until:)`` refreshes it once per fault period so that
/// updates keep coming. (Each refresh adds two opinions the server keeps, so it is not done
/// more often: the server's memory is in the process's RSS.)
struct SoakLive: Sendable {
    /// The connection to `/api/ws/radar/{id}`.
    let connection: WebSocketConnection
    /// The radar watched.
    let radarId: String
    let radar: RadarClient
    let tally: SoakTally

    /// Creates the radar to watch, named `name`, and starts connecting to its updates, signed
    /// by `session` (a refused handshake renews the credential, learnt through `transport`).
    static func open(
        radar: RadarClient,
        session: AuthSession,
        transport: AsyncHTTPClientTransport,
        baseURL: URL,
        name: String,
        tally: SoakTally
    ) async throws -> SoakLive {
        let watched = try await radar.create(topic: name)
        guard let url = RadarLiveEndpoints.webSocketURL(baseURL: baseURL, radarId: watched.id) else {
            throw CourierError(code: .invalidRequest, message: "no WebSocket URL for \(baseURL.absoluteString)")
        }
        var logger = Logger(label: "courier.soak.websocket")
        logger.logLevel = .warning
        let configuration = WebSocketConfiguration(
            url: url,
            reconnect: ReconnectPolicy(backoff: .exponential(base: .milliseconds(100), maxDelay: .seconds(2))),
            heartbeat: .seconds(5)
        )
        let connection = WebSocketConnection(
            configuration: configuration,
            engine: WSClientEngine(handshakeStatusProbe: transport, logger: logger),
            auth: session,
            logger: logger
        )
        connection.connect()
        return SoakLive(connection: connection, radarId: watched.id, radar: radar, tally: tally)
    }

    /// Counts the messages received until the connection closes.
    func readMessages() async {
        for await _ in connection.messages {
            tally.recordWebSocketMessage()
        }
    }

    /// Refreshes the watched radar every `period` until `deadline`.
    func refresh(every period: Duration, until deadline: ContinuousClock.Instant) async {
        var next = ContinuousClock.now + period
        while next < deadline {
            try? await Task.sleep(until: next, clock: .continuous)
            tally.begin()
            tally.count(.liveRefresh)
            do {
                _ = try await radar.refresh(id: radarId)
            } catch {
                tally.recordError(error)
            }
            tally.end()
            next += period
        }
    }

    /// How many times the connection came back after it first opened.
    var reconnects: Int {
        max(0, connection.openCount - 1)
    }

    /// Closes the connection for good; ``readMessages()`` then ends.
    func close() async {
        await connection.close()
    }
}
