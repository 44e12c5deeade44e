import Courier
import CourierWebSocket
import Foundation
import ReferenceServer

/// The `ws://` URL of a path on the reference server.
func webSocketURL(_ base: URL, _ path: String) -> URL {
    URL(string: base.absoluteString.replacingOccurrences(of: "http://", with: "ws://") + path)!
}

/// Reads states until one matches, for at most `timeout` of real time; returns the states
/// seen, the matching one last (or without it on timeout).
func states(
    of connection: WebSocketConnection,
    until predicate: @escaping @Sendable (WebSocketState) -> Bool,
    timeout: Duration = .seconds(20)
) async -> [WebSocketState] {
    await withTaskGroup(of: [WebSocketState]?.self) { group in
        group.addTask {
            var seen: [WebSocketState] = []
            for await state in connection.stateChanges() {
                seen.append(state)
                if predicate(state) { return seen }
            }
            return seen
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first ?? []
    }
}

/// The next message, waiting at most `timeout` of real time.
func nextMessage(_ connection: WebSocketConnection, timeout: Duration = .seconds(20)) async -> WebSocketMessage? {
    await withTaskGroup(of: WebSocketMessage?.self) { group in
        group.addTask {
            var iterator = connection.messages.makeAsyncIterator()
            return await iterator.next()
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}
