public import Foundation
public import HTTPTypes

/// A web origin (RFC 6454): scheme, host and port, with the scheme's default port filled in.
///
/// Two requests share an origin when all three match, case aside: `https://API.example.com`
/// and `https://api.example.com:443/v1` do; `http://api.example.com` and
/// `https://api.example.com:8443` do not. Credentials, cookies and bodies stay within the
/// origins a client is made for (see ``ClientConfiguration/credentialOrigins``).
public struct Origin: Hashable, Sendable, CustomStringConvertible {
    /// `http` or `https` (or another scheme), lowercased.
    public let scheme: String
    /// The host, lowercased, without the brackets of an IPv6 literal.
    public let host: String
    /// The port, or the scheme's default (80 for http and ws, 443 for https and wss).
    public let port: Int

    /// The origin of a URL; `nil` when it has no scheme or host.
    public init?(_ url: URL) {
        guard let scheme = url.scheme, let host = url.host, !host.isEmpty else { return nil }
        self.init(scheme: scheme, host: host, port: url.port)
    }

    /// The origin a request is sent to; `nil` when it has no scheme or authority.
    public init?(_ request: HTTPRequest) {
        guard let scheme = request.scheme, let authority = request.authority, !authority.isEmpty else { return nil }
        var hostAndPort = Substring(authority)
        if let at = hostAndPort.lastIndex(of: "@") { hostAndPort = hostAndPort[hostAndPort.index(after: at)...] }
        var host = hostAndPort
        var port: Int?
        if hostAndPort.first == "[", let close = hostAndPort.firstIndex(of: "]") {
            host = hostAndPort[...close]
            let rest = hostAndPort[hostAndPort.index(after: close)...]
            if rest.first == ":" { port = Int(rest.dropFirst()) }
        } else if let colon = hostAndPort.lastIndex(of: ":") {
            host = hostAndPort[..<colon]
            port = Int(hostAndPort[hostAndPort.index(after: colon)...])
        }
        guard !host.isEmpty else { return nil }
        self.init(scheme: scheme, host: String(host), port: port)
    }

    /// Makes an origin.
    /// - Parameters:
    ///   - scheme: The scheme.
    ///   - host: The host; an IPv6 literal with or without brackets.
    ///   - port: The port; `nil` for the scheme's default.
    public init(scheme: String, host: String, port: Int?) {
        let scheme = scheme.lowercased()
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.scheme = scheme
        self.host = host
        self.port = port ?? Self.defaultPort(for: scheme)
    }

    /// `https://api.example.com:8443`, with the port only when it is not the default.
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return port == Self.defaultPort(for: scheme) ? "\(scheme)://\(shownHost)" : "\(scheme)://\(shownHost):\(port)"
    }

    /// Whether the host is the machine itself: `localhost`, `127.0.0.0/8` or `::1`.
    public var isLoopback: Bool {
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    private static func defaultPort(for scheme: String) -> Int {
        switch scheme {
        case "https", "wss": return 443
        default: return 80
        }
    }
}
