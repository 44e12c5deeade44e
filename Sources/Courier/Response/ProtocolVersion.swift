/// The HTTP version a response came over, as the transport negotiated it (on HTTPS, by ALPN).
///
/// ``ResponseMetrics/protocolVersion`` carries it for responses from the network; the call's
/// log line and its attempt span (`network.protocol.version`) name it too.
public enum ProtocolVersion: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// HTTP/1.0.
    case http1_0 = "HTTP/1.0"
    /// HTTP/1.1.
    case http1_1 = "HTTP/1.1"
    /// HTTP/2.
    case http2 = "HTTP/2"
    /// HTTP/3.
    case http3 = "HTTP/3"

    /// The version by its numbers; `nil` for one this type does not name.
    /// - Parameters:
    ///   - major: The major version, such as 2.
    ///   - minor: The minor version, such as 0.
    public init?(major: Int, minor: Int) {
        switch (major, minor) {
        case (1, 0): self = .http1_0
        case (1, 1): self = .http1_1
        case (2, _): self = .http2
        case (3, _): self = .http3
        default: return nil
        }
    }

    /// `HTTP/1.1`, `HTTP/2`, as a status line or `curl -v` writes it.
    public var description: String { rawValue }

    /// The OpenTelemetry `network.protocol.version` value: `1.0`, `1.1`, `2` or `3`.
    public var networkProtocolVersion: String { String(rawValue.dropFirst("HTTP/".count)) }

    /// A small number for an `Atomic`; 0 means none.
    var storageValue: UInt8 { UInt8(Self.allCases.firstIndex(of: self)! + 1) }

    /// The version a ``storageValue`` stands for.
    init?(storageValue: UInt8) {
        guard storageValue > 0, Int(storageValue) <= Self.allCases.count else { return nil }
        self = Self.allCases[Int(storageValue) - 1]
    }
}
