import Foundation
import NIOCore
import NIOWebSocket
import WSClient

/// One open `WSClient` connection, as a ``WebSocketLink``.
struct WSClientLink: WebSocketLink {
    let outbound: WebSocketOutboundWriter
    let watch: LinkWatch

    func send(_ message: WebSocketMessage) async throws {
        switch message {
        case .text(let text):
            try await outbound.writeTextMessage(text)
        case .binary(let data):
            try await outbound.writeBinaryMessage(ByteBuffer(bytes: data))
        }
    }

    func close(code: WebSocketCloseCode, reason: String) async throws {
        watch.markCloseRequested()
        try await outbound.close(WebSocketErrorCode(codeNumber: Int(code.rawValue)), reason: reason.isEmpty ? nil : reason)
    }
}
