import Courier
import CourierWebSocket
import Foundation
import ReferenceServer

/// The `ws://` URL of a path on the reference server.
func webSocketURL(_ base: URL, _ path: String) -> URL {
    URL(string: base.absoluteString.replacingOccurrences(of: "http://", with: "ws://") + path)!
}

/// Reads states until one matches, for at most `timeout` of real time; returns the states
/// seen, the matching one last (nothing on timeout).
func states(
    of connection: WebSocketConnection,
    until predicate: @escaping @Sendable (WebSocketState) -> Bool,
    timeout: Duration = .seconds(20)
) async -> [WebSocketState] {
    let seen = await withDeadline(timeout) { () async -> [WebSocketState] in
        var seen: [WebSocketState] = []
        for await state in connection.stateChanges() {
            seen.append(state)
            if predicate(state) { return seen }
        }
        return seen
    }
    return seen ?? []
}

/// The next message, waiting at most `timeout` of real time.
func nextMessage(_ connection: WebSocketConnection, timeout: Duration = .seconds(20)) async -> WebSocketMessage? {
    let message = await withDeadline(timeout) { () async -> WebSocketMessage? in
        var iterator = connection.messages.makeAsyncIterator()
        return await iterator.next()
    }
    return message ?? nil
}
