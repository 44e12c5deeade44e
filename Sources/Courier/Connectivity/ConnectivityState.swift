/// Whether the network can be reached, as far as Courier knows.
public enum ConnectivityStatus: String, Sendable, Hashable, CustomStringConvertible {
    /// Requests are expected to reach the server.
    case online
    /// Requests are expected to fail: no path, or recent requests could not connect.
    case offline
    /// Online on an expensive or constrained path (low data mode, cellular), where the
    /// platform says so. Requests are sent; apps may defer large transfers.
    case constrained

    /// The status's name.
    public var description: String { rawValue }

    /// Whether requests are expected to reach the server.
    public var isReachable: Bool { self != .offline }
}

/// Something that tells the connectivity monitor about the network.
public enum ConnectivityEvent: Sendable, Hashable {
    /// The platform reported a path change (`NWPathMonitor` on Apple platforms).
    case pathChanged(ConnectivityStatus)
    /// A request reached the server (any status).
    case requestSucceeded
    /// A request could not reach the server (no network, or the connection was refused).
    case requestUnreachable
    /// The active probe reached the health URL.
    case probeSucceeded
    /// The active probe failed.
    case probeFailed
}

/// The connectivity monitor's decisions, as a pure state machine: a status and whether the
/// active probe should be running.
///
/// On Linux there is no path monitor, so the status is passive: a request that cannot reach
/// the server marks offline, any request or probe that reaches it marks online. While
/// offline, an active probe (when configured) checks a health URL with backoff.
public struct ConnectivityState: Sendable, Hashable {
    /// What the state machine asks its owner to do after an event.
    public enum Effect: Sendable, Hashable {
        /// Nothing.
        case none
        /// Start probing the health URL (the status just became offline).
        case startProbing
        /// Stop probing (the status is reachable again).
        case stopProbing
    }

    /// The current status.
    public private(set) var status: ConnectivityStatus
    /// Whether the platform reports paths (then passive failures do not override it).
    public private(set) var hasPathMonitor: Bool

    /// Makes a state.
    public init(status: ConnectivityStatus = .online, hasPathMonitor: Bool = false) {
        self.status = status
        self.hasPathMonitor = hasPathMonitor
    }

    /// Applies an event.
    /// - Returns: What to do about the probe.
    public mutating func apply(_ event: ConnectivityEvent) -> Effect {
        let before = status
        switch event {
        case .pathChanged(let reported):
            hasPathMonitor = true
            status = reported
        case .requestSucceeded, .probeSucceeded:
            // A server answered: the network works, whatever the path said last.
            if status == .offline { status = .online }
        case .requestUnreachable:
            // With a path monitor, one refused connection is the server's problem, not the network's.
            if !hasPathMonitor { status = .offline }
        case .probeFailed:
            break
        }
        switch (before.isReachable, status.isReachable) {
        case (true, false): return .startProbing
        case (false, true): return .stopProbing
        default: return .none
        }
    }
}
