import Courier
import Logging
import NIOCore
import NIOWebSocket
import Synchronization
import WSClient

/// What happened to one `WSClient` connection that `WSClient` does not report: whether the
/// handshake succeeded, whether we asked to close, whether its automatic ping gave up, and
/// whether the pin check refused the server.
///
/// A `final class` whose flags sit in a `Mutex`, which makes it `Sendable`.
final class LinkWatch: Sendable {
    private struct Flags {
        var opened = false
        var closeRequested = false
        var heartbeatTimedOut = false
        var tlsFailure: CourierError?
    }

    private let flags = Mutex(Flags())

    func markOpened() { flags.withLock { $0.opened = true } }
    func markCloseRequested() { flags.withLock { $0.closeRequested = true } }

    var wasOpened: Bool { flags.withLock { $0.opened } }
    var heartbeatTimedOut: Bool { flags.withLock { $0.heartbeatTimedOut } }
    /// The first TLS failure seen on the connection (a pin mismatch), if any.
    var tlsFailure: CourierError? { flags.withLock { $0.tlsFailure } }

    /// Records a TLS failure; the first one counts.
    func noteTLSFailure(_ error: CourierError) {
        flags.withLock { flags in
            if flags.tlsFailure == nil { flags.tlsFailure = error }
        }
    }

    /// Records a close frame the engine sends: a 1001 ("going away") that we did not ask for
    /// is `WSClient`'s automatic ping giving up on a missing pong.
    func noteOutgoingClose(code: UInt16) {
        flags.withLock { flags in
            if code == 1001, !flags.closeRequested { flags.heartbeatTimedOut = true }
        }
    }
}

/// A local, non-negotiated extension that lets frames through unchanged and tells the
/// ``LinkWatch`` about outgoing close frames. It uses no reserved bits and sends no header.
struct OutgoingCloseObserver: WebSocketExtension {
    let watch: LinkWatch

    var name: String { "courier-close-observer" }

    func processReceivedFrame(_ frame: WebSocketFrame, context: WebSocketExtensionContext) async throws -> WebSocketFrame {
        frame
    }

    func processFrameToSend(_ frame: WebSocketFrame, context: WebSocketExtensionContext) async throws -> WebSocketFrame {
        if frame.opcode == .connectionClose {
            var data = frame.unmaskedData
            if let code = data.readInteger(as: UInt16.self) { watch.noteOutgoingClose(code: code) }
        }
        return frame
    }

    func shutdown() async {}
}
