public import Foundation
import HTTPTypes
import Synchronization

/// Tracks whether the server can be reached and publishes changes as an async stream.
///
/// ```swift
/// let connectivity = ConnectivityMonitor(probe: .init(url: healthURL, transport: transport))
/// var configuration = ClientConfiguration(baseURL: url)
/// configuration.connectivity = connectivity
/// for await status in connectivity.updates() { banner.isHidden = status.isReachable }
/// ```
///
/// Passive by default, on every platform: the client reports each attempt (a request that
/// cannot connect marks offline; one that reaches the server marks online). On Apple platforms
/// `PathConnectivitySource` (Apple platforms) feeds `NWPathMonitor`'s paths in as well. While offline, the
/// optional ``Probe`` asks a health URL with backoff, so the status recovers without traffic.
///
/// A `final class` whose state sits in a `Mutex`, which makes it `Sendable`.
public final class ConnectivityMonitor: Sendable {
    /// An active check of a health URL while offline.
    public struct Probe: Sendable {
        /// The URL to GET; any HTTP answer counts as reachable.
        public var url: URL
        /// The engine to send it with.
        public var transport: any Transport
        /// The waits between probes.
        public var backoff: Backoff

        /// Makes a probe.
        public init(url: URL, transport: any Transport, backoff: Backoff = Backoff(.exponential(base: .milliseconds(500), multiplier: 2), maxDelay: .seconds(30))) {
            self.url = url
            self.transport = transport
            self.backoff = backoff
        }
    }

    private struct Inner: Sendable {
        var state: ConnectivityState
        var observers: [Int: AsyncStream<ConnectivityStatus>.Continuation] = [:]
        var nextObserver = 0
        var probing: Task<Void, Never>?
    }

    private let inner: Mutex<Inner>
    private let probe: Probe?
    private let clock: any CourierClock

    /// Makes a monitor.
    /// - Parameters:
    ///   - initial: The status to start with (online: try the network until it says otherwise).
    ///   - probe: A health check to run while offline, or `nil` to wait for traffic or a path change.
    ///   - clock: The clock the probe waits on.
    public init(initial: ConnectivityStatus = .online, probe: Probe? = nil, clock: any CourierClock = SystemClock()) {
        self.inner = Mutex(Inner(state: ConnectivityState(status: initial)))
        self.probe = probe
        self.clock = clock
    }

    deinit {
        inner.withLock { $0.probing?.cancel() }
    }

    /// The current status.
    public var status: ConnectivityStatus {
        inner.withLock { $0.state.status }
    }

    /// The current status, then every change.
    public func updates() -> AsyncStream<ConnectivityStatus> {
        let (stream, continuation) = AsyncStream<ConnectivityStatus>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let id = inner.withLock { inner in
            let id = inner.nextObserver
            inner.nextObserver += 1
            inner.observers[id] = continuation
            continuation.yield(inner.state.status)
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.inner.withLock { $0.observers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Tells the monitor about the network; the client and `PathConnectivitySource` call it,
    /// and so may an app with its own source.
    public func report(_ event: ConnectivityEvent) {
        let (effect, changed, observers) = inner.withLock { inner in
            let before = inner.state.status
            let effect = inner.state.apply(event)
            let after = inner.state.status
            return (effect, before != after ? after : nil, Array(inner.observers.values))
        }
        if let changed { for observer in observers { observer.yield(changed) } }
        switch effect {
        case .startProbing: startProbing()
        case .stopProbing: inner.withLock { $0.probing?.cancel(); $0.probing = nil }
        case .none: break
        }
    }

    /// Waits until the status is reachable, at most `limit`.
    /// - Returns: Whether it is reachable.
    public func waitUntilReachable(limit: Duration) async -> Bool {
        if status.isReachable { return true }
        let deadline = clock.now.advanced(by: limit)
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await status in self.updates() where status.isReachable { return true }
                return false
            }
            group.addTask {
                try? await self.clock.sleep(until: deadline)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first || self.status.isReachable
        }
    }

    private func startProbing() {
        guard let probe else { return }
        let task = Task { [weak self] in
            var generator = SystemRandomNumberGenerator()
            var failures = 0
            while !Task.isCancelled, let self, !self.status.isReachable {
                try? await self.clock.sleep(for: probe.backoff.delay(afterFailedAttempts: failures + 1, using: &generator))
                guard !Task.isCancelled else { return }
                let reached = await Self.reaches(probe)
                self.report(reached ? .probeSucceeded : .probeFailed)
                failures += 1
            }
        }
        inner.withLock { $0.probing?.cancel(); $0.probing = task }
    }

    private static func reaches(_ probe: Probe) async -> Bool {
        guard let components = URLComponents(url: probe.url, resolvingAgainstBaseURL: false), let scheme = components.scheme,
              let host = components.host else { return false }
        let authority = components.port.map { "\(host):\($0)" } ?? host
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        let request = HTTPRequest(method: .get, scheme: scheme, authority: authority, path: path + (components.percentEncodedQuery.map { "?" + $0 } ?? ""))
        var options = RequestOptions()
        options.timeout = .seconds(5)
        do {
            let (_, body) = try await probe.transport.send(request, body: nil, context: RequestContext(endpoint: "connectivity.probe", options: options))
            _ = await body?.prefix(upTo: 1 << 16)
            return true
        } catch {
            return false
        }
    }
}
