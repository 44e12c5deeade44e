import Courier
import CourierWebSocket
import HTTPTypes
import Synchronization

/// A WebSocket engine that plays a script, one entry per connection attempt, without I/O:
/// for tests of the connection's policy (reconnect waits, buffers, auth).
final class ScriptedWebSocketEngine: WebSocketEngine {
    enum Attempt: Sendable {
        case refuse(status: Int?)
        case cannotConnect
        /// Fails to connect with this error.
        case fail(CourierError)
        /// Opens, delivers these messages, then ends as `end` says.
        case open(deliver: [WebSocketMessage], end: End)
    }

    enum End: Sendable {
        case lost
        case closedByServer(WebSocketCloseCode, String)
        /// Stays open until the link is closed (the app's close is answered in kind).
        case whenClosed
    }

    private struct State {
        var script: [Attempt]
        var sent: [WebSocketMessage] = []
        var handshakes: [HTTPFields] = []
    }

    private let state: Mutex<State>
    /// Counts the opens that have delivered their messages.
    private let deliveries = EventCounter()

    init(_ script: [Attempt]) {
        self.state = Mutex(State(script: script))
    }

    var sent: [WebSocketMessage] { state.withLock { $0.sent } }
    var handshakes: [HTTPFields] { state.withLock { $0.handshakes } }

    /// Waits until `count` opens have delivered their messages, at most ten real seconds.
    /// - Returns: Whether they had.
    @discardableResult
    func delivered(_ count: Int = 1) async -> Bool {
        await deliveries.waitUntil(atLeast: count)
    }

    func run(
        _ handshake: WebSocketHandshake,
        options: WebSocketEngineOptions,
        onOpen: @escaping @Sendable (any WebSocketLink) async -> Void,
        onMessage: @escaping @Sendable (WebSocketMessage) async -> Void
    ) async throws -> WebSocketLinkEnd {
        let attempt = state.withLock { state -> Attempt in
            state.handshakes.append(handshake.headers)
            return state.script.isEmpty ? .open(deliver: [], end: .whenClosed) : state.script.removeFirst()
        }
        switch attempt {
        case .refuse(let status):
            throw WebSocketHandshakeError(status: status)
        case .cannotConnect:
            throw CourierError(code: .cannotConnect, message: "scripted refusal")
        case .fail(let error):
            throw error
        case .open(let deliver, let end):
            let (closes, closed) = AsyncStream.makeStream(of: WebSocketCloseCode.self)
            let link = Link(engine: self, closed: closed)
            await onOpen(link)
            for message in deliver { await onMessage(message) }
            deliveries.record()
            switch end {
            case .lost:
                return .lost(reason: "scripted drop")
            case .closedByServer(let code, let reason):
                return .closedByServer(code: code, reason: reason)
            case .whenClosed:
                for await code in closes { return .closedByServer(code: code, reason: "") }
                return .lost(reason: "cancelled")
            }
        }
    }

    private struct Link: WebSocketLink {
        let engine: ScriptedWebSocketEngine
        let closed: AsyncStream<WebSocketCloseCode>.Continuation

        func send(_ message: WebSocketMessage) async throws {
            engine.state.withLock { $0.sent.append(message) }
        }

        func close(code: WebSocketCloseCode, reason: String) async throws {
            closed.yield(code)
            closed.finish()
        }
    }
}
