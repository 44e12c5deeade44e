public import Courier
import Foundation
public import Logging
public import NIOCore
public import NIOPosix
import NIOWebSocket
import WSClient

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
/// let engine = WSClientEngine(handshakeStatusProbe: AsyncHTTPClientTransport())
/// let connection = WebSocketConnection(configuration: configuration, engine: engine, auth: session)
/// ```
public struct WSClientEngine: WebSocketEngine {
    private let eventLoopGroup: any EventLoopGroup
    private let statusProbe: HandshakeStatusProbe?
    private let logger: Logger

    /// Makes the engine.
    /// - Parameters:
    ///   - eventLoopGroup: The event loops connections run on; NIO's shared group by default.
    ///   - handshakeStatusProbe: A transport to learn the status of a declined handshake, or
    ///     `nil` to report it without a status.
    ///   - logger: The engine's logger (it never logs header fields).
    public init(
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        handshakeStatusProbe: (any Transport)? = nil,
        logger: Logger = Logger(label: "courier.websocket")
    ) {
        self.eventLoopGroup = eventLoopGroup
        self.statusProbe = handshakeStatusProbe.map(HandshakeStatusProbe.init)
        self.logger = logger
    }

    /// Opens a connection with `WSClient` and carries it until it ends.
    public func run(
        _ handshake: WebSocketHandshake,
        options: WebSocketEngineOptions,
        onOpen: @escaping @Sendable (any WebSocketLink) async -> Void,
        onMessage: @escaping @Sendable (WebSocketMessage) async -> Void
    ) async throws -> WebSocketLinkEnd {
        let watch = LinkWatch()
        let client = WebSocketClient(
            url: handshake.url.absoluteString,
            configuration: Self.clientConfiguration(handshake: handshake, options: options, watch: watch),
            eventLoopGroup: eventLoopGroup,
            logger: logger
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
        do {
            let closeFrame = try await client.run()
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
            if error is CancellationError || Task.isCancelled { throw CancellationError() }
            throw CourierError(
                code: .cannotConnect,
                message: "could not open a WebSocket to \(handshake.url.host ?? "?"):\(handshake.url.port.map(String.init) ?? "default port")",
                underlying: error
            )
        }
    }

    private static func clientConfiguration(
        handshake: WebSocketHandshake,
        options: WebSocketEngineOptions,
        watch: LinkWatch
    ) -> WebSocketClientConfiguration {
        var extensions: [WebSocketExtensionFactory] = []
        if options.heartbeat != nil {
            extensions.append(.nonNegotiatedExtension { OutgoingCloseObserver(watch: watch) })
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
