#if canImport(Network)
import Network

/// Feeds `NWPathMonitor`'s paths into a ``ConnectivityMonitor`` on Apple platforms:
/// satisfied paths are online (constrained when the path is constrained or expensive),
/// others offline.
///
/// ```swift
/// let source = PathConnectivitySource(monitor: connectivity)
/// source.start()
/// ```
///
/// A `final class` of `let` properties that are themselves `Sendable` (`NWPathMonitor`,
/// `DispatchQueue`, the monitor); the path handler runs on the source's own queue.
public final class PathConnectivitySource: Sendable {
    private let pathMonitor = NWPathMonitor()
    private let queue = DispatchQueue(label: "courier.connectivity")
    private let monitor: ConnectivityMonitor

    /// Makes a source for a monitor.
    public init(monitor: ConnectivityMonitor) {
        self.monitor = monitor
    }

    /// Starts reporting path changes.
    public func start() {
        let monitor = self.monitor
        pathMonitor.pathUpdateHandler = { path in
            let status: ConnectivityStatus = switch path.status {
            case .satisfied: path.isConstrained || path.isExpensive ? .constrained : .online
            default: .offline
            }
            monitor.report(.pathChanged(status))
        }
        pathMonitor.start(queue: queue)
    }

    /// Stops reporting.
    public func cancel() {
        pathMonitor.cancel()
    }
}
#endif
