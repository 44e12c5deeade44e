import ArgumentParser
import ClarityAPI
import Courier
import CourierWebSocket
import Foundation
import RadarAPI
import RadarCore

/// `courier radar watch ID`: prints a radar's live updates as they arrive, across drops.
struct RadarWatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print a radar's live updates as they arrive (reconnects by itself).",
        discussion: """
        Opens the radar's WebSocket (/api/ws/radar/ID), signed as the stored (or demo) \
        account, and prints every update and every change of the connection. Try \
        `curl -X POST $API_URL/debug/realtime/drop` against `courier serve --debug-routes`: \
        the watch reconnects and carries on. Stop it with Ctrl-C, or give --count.
        """
    )

    @OptionGroup var server: ServerOptions
    @Argument(help: "The radar's id.") var id: String
    @Option(help: "Stop after this many updates.") var count: Int?
    @Option(help: "Seconds between pings (a missing pong by the next one reconnects).") var heartbeat: Double = 15

    func validate() throws {
        // Duration(milliseconds:) of a NaN, infinite or huge value would trap.
        guard heartbeat.isFinite, heartbeat >= 0.05, heartbeat <= 86_400 else {
            throw ValidationError("--heartbeat must be a number of seconds from 0.05 to 86400")
        }
    }

    func run() async throws {
        try await server.withSession { clarity in
            let baseURL = try server.baseURL()
            guard let url = RadarLiveEndpoints.webSocketURL(baseURL: baseURL, radarId: id) else {
                throw ValidationError("cannot make a WebSocket URL from \(baseURL.absoluteString)")
            }
            let configuration = WebSocketConfiguration(
                url: url,
                reconnect: ReconnectPolicy(backoff: .exponential(base: .milliseconds(250), maxDelay: .seconds(10))),
                heartbeat: .milliseconds(Int64(heartbeat * 1_000))
            )
            let connection = WebSocketConnection(
                configuration: configuration,
                engine: WSClientEngine(handshakeStatusProbe: clarity.client.transport),
                auth: clarity.session
            )
            Console.line("watching \(id) at \(url.absoluteString)")
            let states = Task {
                for await state in connection.stateChanges() { Console.line("  · \(state)") }
            }
            connection.connect()
            var received = 0
            for await message in connection.messages {
                Console.line(Self.describe(message))
                received += 1
                if let count, received >= count { break }
            }
            await connection.close()
            await states.value
            if case .closed(let code, let reason) = connection.state, code != .normalClosure {
                throw ValidationError("the connection closed: \(code) \(reason)")
            }
        }
    }

    /// One line for one message.
    static func describe(_ message: WebSocketMessage) -> String {
        do {
            switch try RadarUpdateMessage.decode(from: message.data) {
            case .update(.newOpinion(let opinion)):
                return "+ opinion " + RadarFormatting.line(opinion).trimmingCharacters(in: .whitespaces)
            case .update(.positionChange(_, let position)):
                return "→ position is now \(position.rawValue)"
            case .update(.refresh(let radar)):
                return "⟳ " + RadarFormatting.line(radar)
            case .unknown(let type, _):
                return "? skipped an update of unknown type \(type)"
            }
        } catch {
            return "? skipped a malformed update (\(message.byteCount) bytes)"
        }
    }
}
