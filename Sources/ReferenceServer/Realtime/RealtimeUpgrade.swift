import Foundation
import Hummingbird
import HummingbirdWebSocket
import HummingbirdWSCompression
import Logging
import NIOCore
import RadarCore

/// Decides which WebSocket handshakes the server accepts, and with which session.
///
/// - `/debug/ws/echo`: echoes every message, without authentication; only when the debug
///   routes are on (``ReferenceServerConfiguration/enablesDebugRoutes``);
/// - `/api/ws/radar/{id}`: the radar's live updates; needs `Authorization: Bearer <access
///   token>` for a user who may see the radar.
///
/// A handshake it declines goes on as a plain HTTP request through the router, whose
/// answer (401, 404, or 426 for a valid request that is not an upgrade) the client receives.
struct RealtimeUpgrade: Sendable {
    typealias Handler = WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>

    let hub: RealtimeHub
    let store: RadarStore
    let auth: AuthService
    /// Whether `/debug/ws/echo` is offered.
    let enablesDebugRoutes: Bool

    /// The text that `/debug/ws/echo` answers with the extensions the client offered.
    static let offeredExtensionsQuery = "?extensions"

    /// The server's WebSocket settings: 1 MiB frames, permessage-deflate for a client that
    /// offers it (messages decoded up to 16 MiB), UTF-8 checked, no server pings.
    static let configuration = WebSocketServerConfiguration(
        maxFrameSize: 1 << 20,
        extensions: [.perMessageDeflate(maxDecompressedFrameSize: 16 << 20)],
        autoPing: .disabled,
        validateUTF8: true
    )

    func shouldUpgrade(_ request: HTTPRequest, channel: any Channel) async -> ShouldUpgradeResult<Handler> {
        let path = request.path.map { String($0.prefix { $0 != "?" }) } ?? ""
        if enablesDebugRoutes, path == "/debug/ws/echo" {
            let offered = request.headerFields[HeaderName("Sec-WebSocket-Extensions")!] ?? ""
            return .upgrade([:], echoHandler(channel: channel, offeredExtensions: offered))
        }
        let prefix = "/api/ws/radar/"
        guard path.hasPrefix(prefix) else { return .dontUpgrade }
        let radarId = String(path.dropFirst(prefix.count)).removingPercentEncoding ?? ""
        guard !radarId.isEmpty, !radarId.contains("/"),
              let authorization = request.headerFields[.authorization],
              let token = AccessTokenMiddleware.bearerToken(in: authorization),
              case .valid(let userId) = await auth.checkAccess(token),
              await store.radar(id: radarId, userId: userId) != nil
        else { return .dontUpgrade }
        return .upgrade([:], radarHandler(radarId: radarId, userId: userId, channel: channel))
    }

    /// Echoes every message; the text ``offeredExtensionsQuery`` is answered with the
    /// `Sec-WebSocket-Extensions` the client offered in its handshake.
    private func echoHandler(channel: any Channel, offeredExtensions: String) -> Handler {
        let session = ManagedSocketSession(hub: hub, channel: channel)
        return { inbound, outbound, _ in
            try await session.run(
                inbound: inbound,
                outbound: outbound,
                push: nil,
                onMessage: { message, outbound in
                    switch message {
                    case .text(Self.offeredExtensionsQuery): try await outbound.writeTextMessage("extensions: " + offeredExtensions)
                    case .text(let text): try await outbound.writeTextMessage(text)
                    case .binary(let bytes): try await outbound.writeBinaryMessage(bytes)
                    }
                }
            )
        }
    }

    private func radarHandler(radarId: String, userId: String, channel: any Channel) -> Handler {
        let session = ManagedSocketSession(hub: hub, channel: channel)
        let feed = hub.feed
        let store = self.store
        return { inbound, outbound, _ in
            let (subscription, updates) = feed.subscribe(radarId: radarId, droppable: false)
            defer { feed.unsubscribe(subscription) }
            try await session.run(
                inbound: inbound,
                outbound: outbound,
                push: { outbound in
                    if let radar = await store.radar(id: radarId, userId: userId) {
                        try await outbound.writeTextMessage(try Self.text(.refresh(radar)))
                    }
                    for await item in updates {
                        try await outbound.writeTextMessage(try Self.text(item.update))
                    }
                },
                onMessage: { _, _ in }
            )
        }
    }

    /// An update as the JSON text of a message.
    static func text(_ update: RadarUpdate) throws -> String {
        String(decoding: try RadarUpdateMessage.encode(update), as: UTF8.self)
    }
}
