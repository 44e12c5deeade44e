import CourierAsyncHTTPClient
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL
import NIOWebSocket
import WSClient
@_spi(WSInternal) import WSCore

/// The client side of one WebSocket connection, for `WSClient`'s `ClientConnection`: the
/// pipeline that opens it (TLS, the pin check, the HTTP upgrade) and the run of its frames.
///
/// It does what swift-websocket's own client channel does (the same `Host` and `Origin`
/// fields, the same upgrader, the same `WebSocketHandler` for the frames), and two things
/// that one cannot: it puts a ``TLSCheckGate`` right after the TLS handler, so the upgrade
/// request waits for the TLS handshake and the pin check; and it sends no IP address in SNI
/// (NIOSSL refuses one), checking the certificate against the address instead. No proxy
/// support: the engine never asked for one.
///
/// The frames are run by `WSCore`'s `WebSocketHandler`, which swift-websocket shares with
/// hummingbird-websocket through its `WSInternal` SPI.
struct WebSocketUpgradeChannel: ClientConnectionChannel {
    /// What the upgrade came to.
    enum UpgradeResult: Sendable {
        case websocket(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, [any WebSocketExtension])
        /// The server answered without switching protocols; the channel is still open.
        case notUpgraded(any Channel)
    }

    /// What the handler is given besides the streams.
    struct Context: WebSocketContext {
        let logger: Logger
    }

    typealias Value = EventLoopFuture<UpgradeResult>

    let target: WebSocketTarget
    let configuration: WebSocketClientConfiguration
    /// The TLS context for `wss`, `nil` for `ws`.
    let sslContext: NIOSSLContext?
    /// Checks the pins after the TLS handshake; `nil` when none are pinned.
    let pinVerifier: PublicKeyPinVerifier?
    let watch: LinkWatch
    /// How long the TLS handshake and the upgrade may take before the channel is closed: a
    /// server that accepts the connection and then says nothing must not hold it forever.
    let openingTimeout: Duration
    let handler: WebSocketDataHandler<Context>

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try configurePipeline(channel: channel, logger: logger)
        }
    }

    func handle(value: Value, logger: Logger) async throws -> WebSocketCloseFrame? {
        switch try await value.get() {
        case .websocket(let webSocketChannel, let extensions):
            return try await WebSocketHandler.handle(
                type: .client,
                configuration: .init(
                    extensions: extensions,
                    autoPing: configuration.autoPing,
                    closeTimeout: configuration.closeTimeout,
                    validateUTF8: configuration.validateUTF8,
                    ignoreUncleanSSLShutdownErrors: configuration.ignoreUncleanSSLShutdownErrors,
                    maxFrameSize: configuration.maxFrameSize
                ),
                asyncChannel: webSocketChannel,
                context: Context(logger: logger),
                handler: handler
            )
        case .notUpgraded(let channel):
            logger.debug("WebSocket upgrade declined")
            channel.close(promise: nil)
            throw WebSocketClientError.webSocketUpgradeFailed
        }
    }

    /// Adds TLS (and the pin check) and the upgrading HTTP client to a new channel; call on
    /// its event loop.
    private func configurePipeline(channel: any Channel, logger: Logger) throws -> Value {
        let extensionBuilders = configuration.extensions
        let upgrader = NIOTypedWebSocketClientUpgrader<UpgradeResult>(
            maxFrameSize: configuration.maxFrameSize,
            upgradePipelineHandler: { channel, head in
                channel.eventLoop.makeCompletedFuture {
                    let asyncChannel = try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(wrappingChannelSynchronously: channel)
                    let extensions = try extensionBuilders.buildClientExtensions(from: Self.fields(head.headers))
                    if !extensions.isEmpty {
                        logger.debug("Enabled WebSocket extensions", metadata: ["extensions": "\(extensions.map(\.name).joined(separator: ","))"])
                    }
                    return UpgradeResult.websocket(asyncChannel, extensions)
                }
            }
        )

        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: "Host", value: target.hostHeader)
        headers.replaceOrAdd(name: "Origin", value: target.origin)
        for field in configuration.additionalHeaders {
            headers.add(name: field.name.rawName, value: field.value)
        }
        for builder in extensionBuilders {
            let header = builder.clientRequestHeader()
            if !header.isEmpty { headers.add(name: "Sec-WebSocket-Extensions", value: header) }
        }
        let requestHead = HTTPRequestHead(version: .http1_1, method: .GET, uri: target.pathAndQuery, headers: headers)

        let upgradeConfiguration = NIOTypedHTTPClientUpgradeConfiguration<UpgradeResult>(
            upgradeRequestHead: requestHead,
            upgraders: [upgrader],
            notUpgradingCompletionHandler: { channel in
                channel.eventLoop.makeSucceededFuture(UpgradeResult.notUpgraded(channel))
            }
        )
        var pipelineConfiguration = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: upgradeConfiguration)
        pipelineConfiguration.leftOverBytesStrategy = .forwardBytes

        let pipeline = channel.pipeline.syncOperations
        if let sslContext {
            let tlsHandler = try NIOSSLClientHandler(context: sslContext, serverHostname: configuration.sniHostname ?? target.serverName)
            try pipeline.addHandler(tlsHandler, position: .first)
            try pipeline.addHandler(TLSCheckGate(pinVerifier: pinVerifier, watch: watch), position: .after(tlsHandler))
        }
        let upgrade = try pipeline.configureUpgradableHTTPClientPipeline(configuration: pipelineConfiguration)
        // A failed upgrade (a bad answer, a refused extension, a failed TLS check) leaves the
        // channel to us: `ClientConnection` does not close it, and each reconnect would leak one.
        upgrade.whenFailure { _ in channel.close(promise: nil) }
        let (seconds, attoseconds) = openingTimeout.components
        let nanoseconds = seconds >= Int64.max / 1_000_000_000 ? Int64.max : max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        let deadline = channel.eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) {
            logger.debug("WebSocket opening timed out")
            channel.close(promise: nil)
        }
        upgrade.whenComplete { _ in deadline.cancel() }
        return upgrade
    }

    /// Response header fields as swift-http-types fields, for the extension negotiation.
    private static func fields(_ headers: HTTPHeaders) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in headers {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        return fields
    }
}
