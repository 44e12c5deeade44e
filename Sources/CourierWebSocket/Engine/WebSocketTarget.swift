import Courier
import Foundation
import NIOCore

/// Where a WebSocket URL points, in the terms the opening handshake needs: the address to
/// connect to, whether to speak TLS, the name to send in SNI, and the request's target,
/// `Host` and `Origin`.
///
/// `Host` carries the port only when the URL names one, and `Origin` is the URL's scheme and
/// host, as swift-websocket's `WebSocketClient` sends them.
struct WebSocketTarget: Sendable, Hashable {
    /// The host to connect to, without IPv6 brackets.
    let host: String
    /// The port: the URL's, or 443 for `wss`/`https` and 80 for `ws`/`http`.
    let port: Int
    /// Whether the connection speaks TLS (`wss` and `https`).
    let usesTLS: Bool
    /// The request target: the percent-encoded path (`/` when empty) and query.
    let pathAndQuery: String
    /// The `Host` header field.
    let hostHeader: String
    /// The `Origin` header field.
    let origin: String

    /// Reads a URL.
    /// - Parameter url: A `ws`, `wss`, `http` or `https` URL with a host.
    /// - Throws: A `CourierError` with code `CourierError.Code.invalidRequest`.
    init(url: URL) throws {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let scheme = components.scheme?.lowercased(),
              ["ws", "wss", "http", "https"].contains(scheme),
              let rawHost = components.host, !rawHost.isEmpty
        else {
            throw CourierError(code: .invalidRequest, message: "not a WebSocket URL with a host: \(url.absoluteString)")
        }
        let host = rawHost.hasPrefix("[") && rawHost.hasSuffix("]") ? String(rawHost.dropFirst().dropLast()) : rawHost
        let bracketed = host.contains(":") ? "[\(host)]" : host
        self.host = host
        self.usesTLS = scheme == "wss" || scheme == "https"
        self.port = components.port ?? (usesTLS ? 443 : 80)
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        self.pathAndQuery = target
        self.hostHeader = components.port.map { "\(bracketed):\($0)" } ?? bracketed
        self.origin = "\(scheme)://\(bracketed)"
    }

    /// Whether the host is an IP address literal rather than a name.
    var hostIsIPAddress: Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }

    /// The name for the TLS server name indication and the certificate's name check: the host,
    /// unless it is an IP address (SNI carries no addresses; NIOSSL then checks the
    /// certificate against the address it connected to).
    var serverName: String? {
        hostIsIPAddress ? nil : host
    }
}
