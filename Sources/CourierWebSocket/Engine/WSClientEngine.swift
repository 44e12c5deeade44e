public import Courier
import CourierAsyncHTTPClient
import Foundation
public import Logging
public import NIOCore
public import NIOPosix
import NIOSSL
import NIOWebSocket
import WSClient
import WSCompression

/// The WebSocket engine on swift-websocket's `WSClient`: the default on Linux (where
/// `URLSessionWebSocketTask` is not available) and on Apple platforms.
///
/// - Text is validated as UTF-8; longer messages are sent in fragments of
///   ``WebSocketEngineOptions/maxFrameBytes``.
/// - The heartbeat is `WSClient`'s automatic ping: a ping every interval, and a missing pong
///   by the next one closes the connection with 1001. The engine reports that end as
///   ``WebSocketLinkEnd/heartbeatTimedOut`` (it watches the frames it sends for a 1001 close
///   it did not ask for).
/// - `WSClient` does not report the status of a declined handshake. Give the engine a
///   `handshakeStatusProbe` transport and it asks the same URL over HTTP, with the same header
///   fields, to learn it; a 401 then makes the connection renew its credential.
///
/// ```swift
/// let transport = AsyncHTTPClientTransport(configuration: .init(tls: tls))
/// let engine = WSClientEngine(handshakeStatusProbe: transport)   // its TLS policy too
/// let connection = WebSocketConnection(configuration: configuration, engine: engine, auth: session)
/// ```
///
/// ## TLS
/// A `wss` connection follows a `TLSPolicy`: the one given as `tls`, or else the
/// policy of the `handshakeStatusProbe` when it is an `AsyncHTTPClientTransport` (so the
/// WebSocket trusts and pins exactly what the client's HTTP requests do), or else the
/// defaults (TLS 1.2 or newer, the system's trust store, no pins).
///
/// - The minimum version and the trust roots are NIOSSL's, with full verification (the chain
///   and the host name; a host given as an IP address is checked against the certificate's
///   IP addresses, and not sent in SNI).
/// - Pins are checked when the TLS handshake completes and **before the opening handshake is
///   written**: the upgrade request, and the credential in its `Authorization` field, wait
///   until a pinned key is found, and a mismatch closes the connection without sending them.
///   As for `AsyncHTTPClientTransport`, NIOSSL shows the engine only the server's leaf
///   certificate: a pin matches the leaf's key, or every root of an exclusive
///   `TLSPolicy.TrustRoots.certificates(_:)` list when all of them are pinned.
/// - Every TLS failure (an untrusted or expired certificate, a wrong host name, no common
///   version, a pin mismatch) throws a `CourierError` with code
///   `CourierError.Code.tlsFailure`; a policy that cannot be applied (a malformed
///   pin, a trust root that is not DER) or a URL without a host throws
///   `CourierError.Code.invalidRequest`. ``WebSocketConnection`` does not reconnect
///   after either: another attempt would fail the same way.
public struct WSClientEngine: WebSocketEngine {
    private let eventLoopGroup: any EventLoopGroup
    private let statusProbe: HandshakeStatusProbe?
    /// The TLS policy in NIOSSL's terms, or why it cannot be applied.
    private let tls: Result<ResolvedTLSPolicy, CourierError>
    private let logger: Logger
    private let openingTimeout: Duration

    /// Makes the engine.
    /// - Parameters:
    ///   - eventLoopGroup: The event loops connections run on; NIO's shared group by default.
    ///   - tls: The TLS policy for `wss` connections; `nil` (the default) takes the policy of
    ///     `handshakeStatusProbe` when it is an `AsyncHTTPClientTransport` made with one, and
    ///     the default `TLSPolicy` otherwise.
    ///   - handshakeStatusProbe: A transport to learn the status of a declined handshake, or
    ///     `nil` to report it without a status.
    ///   - openingTimeout: How long the TLS handshake and the upgrade may take once connected
    ///     (30 seconds by default); a server that accepts and then says nothing is given up
    ///     on with `CourierError.Code.cannotConnect`.
    ///   - logger: The engine's logger (it never logs header fields).
    public init(
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        tls: TLSPolicy? = nil,
        handshakeStatusProbe: (any Transport)? = nil,
        openingTimeout: Duration = .seconds(30),
        logger: Logger = Logger(label: "courier.websocket")
    ) {
        self.eventLoopGroup = eventLoopGroup
        self.statusProbe = handshakeStatusProbe.map(HandshakeStatusProbe.init)
        self.logger = logger
        self.openingTimeout = openingTimeout
        let policy = tls ?? (handshakeStatusProbe as? AsyncHTTPClientTransport)?.tlsPolicy ?? TLSPolicy()
        do {
            self.tls = .success(try ResolvedTLSPolicy(policy))
        } catch let error as CourierError {
            self.tls = .failure(error)
        } catch {
            self.tls = .failure(CourierError(code: .invalidRequest, message: "the TLS policy could not be applied", underlying: error))
        }
    }

    /// Opens a connection with `WSClient` and carries it until it ends.
    public func run(
        _ handshake: WebSocketHandshake,
        options: WebSocketEngineOptions,
        onOpen: @escaping @Sendable (any WebSocketLink) async -> Void,
        onMessage: @escaping @Sendable (WebSocketMessage) async -> Void
    ) async throws -> WebSocketLinkEnd {
        let target = try WebSocketTarget(url: handshake.url)
        var sslContext: NIOSSLContext?
        var pinVerifier: PublicKeyPinVerifier?
        if target.usesTLS {
            let resolved = try tls.get()
            do {
                sslContext = try NIOSSLContext(configuration: resolved.configuration)
            } catch {
                throw TLSFailureMapping.courierError(for: error)
                    ?? CourierError(code: .tlsFailure, message: "the TLS context could not be made: \(error)", underlying: error)
            }
            pinVerifier = resolved.pinVerifier
        }
        let watch = LinkWatch()
        let channel = WebSocketUpgradeChannel(
            target: target,
            configuration: Self.clientConfiguration(handshake: handshake, options: options, watch: watch),
            sslContext: sslContext,
            pinVerifier: pinVerifier,
            watch: watch,
            openingTimeout: openingTimeout
        ) { inbound, outbound, _ in
            watch.markOpened()
            let link = WSClientLink(outbound: outbound, watch: watch)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await onOpen(link) }
                for try await message in inbound.messages(maxSize: options.maxMessageBytes) {
                    await onMessage(WebSocketMessage(message))
                }
                group.cancelAll()
            }
        }
        let connection = ClientConnection(
            channel,
            address: .hostname(target.host, port: target.port),
            eventLoopGroup: eventLoopGroup,
            logger: logger
        )
        do {
            let closeFrame = try await connection.run()
            if watch.heartbeatTimedOut { return .heartbeatTimedOut }
            guard let closeFrame else { return .lost(reason: "the connection ended without a close frame") }
            return .closedByServer(
                code: WebSocketCloseCode(UInt16(webSocketErrorCode: closeFrame.closeCode)),
                reason: closeFrame.reason ?? ""
            )
        } catch let error as WebSocketClientError where error == .webSocketUpgradeFailed {
            let status = await statusProbe?.status(of: handshake)
            throw WebSocketHandshakeError(status: status)
        } catch {
            if watch.heartbeatTimedOut { return .heartbeatTimedOut }
            if watch.wasOpened { return .lost(reason: "the connection failed: \(error)") }
            if let tlsFailure = watch.tlsFailure ?? TLSFailureMapping.courierError(for: error) { throw tlsFailure }
            if error is CancellationError || Task.isCancelled { throw CancellationError() }
            throw CourierError(
                code: .cannotConnect,
                message: "could not open a WebSocket to \(target.host):\(target.port)",
                underlying: error
            )
        }
    }
}

extension WSClientEngine {
    /// `WSClient`'s settings for one connection: frame size, handshake fields, the watcher of
    /// outgoing closes (with a heartbeat), permessage-deflate when offered, the close timeout
    /// and the automatic ping.
    static func clientConfiguration(
        handshake: WebSocketHandshake,
        options: WebSocketEngineOptions,
        watch: LinkWatch
    ) -> WebSocketClientConfiguration {
        var extensions: [WebSocketExtensionFactory] = []
        if options.heartbeat != nil {
            extensions.append(.nonNegotiatedExtension { OutgoingCloseObserver(watch: watch) })
        }
        if let compression = options.compression {
            // A decoded message is bounded as an uncompressed one is.
            // The offer always carries `client_max_window_bits` (15 unless set), as browsers'
            // does: it tells the server it may ask for a smaller window for what the client
            // sends, which a server short of memory does.
            extensions.append(.perMessageDeflate(
                clientMaxWindow: compression.maxWindowBits ?? 15,
                clientNoContextTakeover: compression.noContextTakeover,
                serverMaxWindow: compression.maxWindowBits,
                serverNoContextTakeover: compression.noContextTakeover,
                // compress-nio refuses a frame that decodes to exactly its limit: one more byte
                // lets a message of exactly maxMessageBytes through, as uncompressed.
                maxDecompressedFrameSize: options.maxMessageBytes + 1,
                minFrameSizeToCompress: compression.minMessageBytes
            ))
        }
        return WebSocketClientConfiguration(
            maxFrameSize: options.maxFrameBytes,
            additionalHeaders: handshake.headers,
            extensions: extensions,
            closeTimeout: options.closeTimeout,
            autoPing: options.heartbeat.map { .enabled(timePeriod: $0) } ?? .disabled,
            validateUTF8: true
        )
    }
}

extension WebSocketMessage {
    /// Converts `WSClient`'s message.
    init(_ message: WSClient.WebSocketMessage) {
        switch message {
        case .text(let text): self = .text(text)
        case .binary(let buffer): self = .binary(Data(buffer.readableBytesView))
        }
    }
}
