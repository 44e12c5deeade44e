import Courier
import CourierAsyncHTTPClient
import NIOCore
import NIOTLS

/// Holds back every byte written on a TLS connection until the server has passed the
/// policy's checks: what keeps the opening handshake (and the credential in its
/// `Authorization` field) from reaching a server whose key is not pinned.
///
/// It sits right after the `NIOSSLClientHandler`. The upgrade request is written as soon as
/// the TCP connection is up; the gate keeps it (and any flush) until NIOSSL reports the TLS
/// handshake complete, which it does only once BoringSSL has validated the chain against the
/// trust roots and the host name. Then, when keys are pinned, the gate checks them
/// (`PublicKeyPinVerifier` from CourierAsyncHTTPClient, shared with the HTTP transport): on a
/// match it lets the held writes through; on a mismatch it fails them, reports the
/// `CourierError` (`CourierError.Code.tlsFailure`) down the pipeline, and
/// closes the connection. Nothing of the request was encrypted, let alone sent.
///
/// It also tells the ``LinkWatch`` of every TLS failure that passes by (a refused certificate,
/// no common version, a pin mismatch), so the engine reports it as such whatever error the
/// closing connection ends with.
///
/// Used on the channel's event loop only, as channel handlers are.
final class TLSCheckGate: ChannelDuplexHandler {
    typealias InboundIn = NIOAny
    typealias InboundOut = NIOAny
    typealias OutboundIn = NIOAny
    typealias OutboundOut = NIOAny

    private enum Phase {
        /// The TLS handshake is not done: writes wait.
        case checking
        /// The server passed: writes pass.
        case open
        /// The server failed the pin check: writes fail with this error.
        case refused(CourierError)
    }

    private let pinVerifier: PublicKeyPinVerifier?
    private let watch: LinkWatch
    private var phase = Phase.checking
    private var heldWrites: [(data: NIOAny, promise: EventLoopPromise<Void>?)] = []
    private var flushHeld = false

    /// Makes a gate.
    /// - Parameters:
    ///   - pinVerifier: The pin check, or `nil` when no key is pinned.
    ///   - watch: Where TLS failures are reported.
    init(pinVerifier: PublicKeyPinVerifier?, watch: LinkWatch) {
        self.pinVerifier = pinVerifier
        self.watch = watch
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch phase {
        case .checking:
            heldWrites.append((data: data, promise: promise))
        case .open:
            context.write(data, promise: promise)
        case .refused(let error):
            promise?.fail(error)
        }
    }

    func flush(context: ChannelHandlerContext) {
        switch phase {
        case .checking:
            flushHeld = true
        case .open:
            context.flush()
        case .refused:
            break
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard case .checking = phase, let tlsEvent = event as? TLSUserEvent, case .handshakeCompleted = tlsEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        if let pinVerifier {
            do {
                try pinVerifier.verify(context.pipeline.syncOperations)
            } catch {
                let failure = TLSFailureMapping.courierError(for: error)
                    ?? CourierError(code: .tlsFailure, message: "the server's public key could not be checked: \(error)", underlying: error)
                refuse(context: context, failure)
                return
            }
        }
        phase = .open
        let writes = heldWrites
        heldWrites = []
        for write in writes { context.write(write.data, promise: write.promise) }
        if flushHeld {
            flushHeld = false
            context.flush()
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if case .checking = phase, let failure = TLSFailureMapping.courierError(for: error) {
            watch.noteTLSFailure(failure)
        }
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        failHeldWrites(ChannelError.ioOnClosedChannel)
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        failHeldWrites(ChannelError.ioOnClosedChannel)
    }

    private func refuse(context: ChannelHandlerContext, _ failure: CourierError) {
        phase = .refused(failure)
        watch.noteTLSFailure(failure)
        failHeldWrites(failure)
        context.fireErrorCaught(failure)
        context.close(promise: nil)
    }

    private func failHeldWrites(_ error: any Error) {
        let writes = heldWrites
        heldWrites = []
        flushHeld = false
        for write in writes { write.promise?.fail(error) }
    }
}
