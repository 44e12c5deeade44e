import Courier
import CourierTesting
@testable import CourierWebSocket
import Foundation
import Testing

@Suite("WebSocket state streams")
struct WebSocketStateStreamTests {
    private let configuration = WebSocketConfiguration(url: URL(string: "ws://127.0.0.1:1/ws")!, heartbeat: nil)

    @Test func aStateStreamWhoseReaderIsCancelledOrDroppedIsNoLongerFed() async {
        let connection = WebSocketConnection(configuration: configuration, engine: ScriptedWebSocketEngine([]), clock: ManualClock())
        let kept = connection.stateChanges()
        do { _ = connection.stateChanges() }
        #expect(connection.stateSubscriberCount == 1)

        let read = connection.stateChanges()
        #expect(connection.stateSubscriberCount == 2)
        let reader = Task {
            var seen: [WebSocketState] = []
            for await state in read { seen.append(state) }
            return seen
        }
        reader.cancel()
        _ = await reader.value
        #expect(connection.stateSubscriberCount == 1)

        await connection.close()
        #expect(connection.stateSubscriberCount == 0)
        var seen: [WebSocketState] = []
        for await state in kept { seen.append(state) }
        #expect(seen.first == .idle)
        #expect(seen.last?.isClosed == true)
    }
}
