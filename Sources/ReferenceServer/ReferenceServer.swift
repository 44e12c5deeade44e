public import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdHTTP2
import HummingbirdTLS
import HummingbirdWebSocket
import Logging
import Synchronization

/// The Radar API, the CLARITY API (auth, PAT analysis, insights), the intervals-style training API and, when
/// ``ReferenceServerConfiguration/enablesDebugRoutes`` is set, the `/debug` diagnostic routes, served in-process over HTTP/1.1.
///
/// Start it on an ephemeral loopback port, point a client at ``baseURL``, stop it when done:
/// ```swift
/// var configuration = ReferenceServerConfiguration()
/// configuration.enablesDebugRoutes = true      // for /debug/ping, /debug/slow, …
/// let server = ReferenceServer(configuration: configuration)
/// let baseURL = try await server.start()   // http://127.0.0.1:54321
/// let tokens = try await server.issueTokens(email: "demo@courier.dev")
/// server.faults.inject(.status(503), count: 2, path: "/api/radars")
/// // … requests with "Authorization: Bearer \(tokens.accessToken)" …
/// await server.stop()
/// ```
/// Every `/api` route except register, login, refresh and verify-email needs an access token
/// (see ``issueTokens(email:)``). State (accounts, tokens, radars, idempotency keys, counts,
/// faults) lives in memory and survives a stop and a new start of the same instance.
/// Synthetic content is deterministic for a given ``ReferenceServerConfiguration/seed``.
///
/// `Sendable` without `@unchecked`: the lifecycle phase is held in a `Mutex`, and every other
/// piece of state sits in an actor or behind a `Mutex` of its own.
public final class ReferenceServer: Sendable {
    /// Where the server is in its lifecycle.
    private enum Phase: Sendable {
        /// Not listening.
        case idle
        /// Binding; `startup` resolves to the base URL once listening.
        case starting(startup: Task<URL, any Error>, server: Task<Void, any Error>)
        /// Listening on `url`.
        case running(server: Task<Void, any Error>, url: URL)
        /// Shutting down; `shutdown` finishes when the server task has.
        case stopping(shutdown: Task<Void, Never>)
    }

    /// Why ``start()`` failed.
    public struct StartError: Error, CustomStringConvertible {
        /// A description of the failure.
        public let description: String
    }

    /// The faults scripted for the next requests; see ``FaultInjector``.
    public let faults: FaultInjector
    /// The live updates, open WebSockets and event streams, and their faults; see ``RealtimeHub``.
    public let realtime: RealtimeHub
    /// The connections to close in the middle of the next response bodies; see ``BodyFaultInjector``.
    public let bodyFaults: BodyFaultInjector
    /// What the fleet origin's routes under `/fleet` saw, for a benchmark or a test to read; see ``FleetLedger``.
    public let fleet: FleetLedger

    private let configuration: ReferenceServerConfiguration
    private let store: RadarStore
    let auth: AuthService
    let requestCounter: RequestCounter
    let idempotencyStore: IdempotencyStore
    let intervalsStore: IntervalsStore
    let clarityStore: ClarityStore
    let clarityHealthStore: ClarityHealthStore
    let blobCatalog: BlobCatalog
    /// Drains HTTP/2 connections after ``HTTP2Options/goAwayAfterRequests``; `nil` without.
    let connectionDrain: ConnectionDrainMiddleware?
    private let logger: Logger
    private let phase = Mutex<Phase>(.idle)

    /// Creates a server with the demo account and its radars; it does not listen until ``start()`` or ``run()``.
    /// - Parameter configuration: Address, seed, demo account, token lifetime and logger.
    public init(configuration: ReferenceServerConfiguration = .init()) {
        self.configuration = configuration
        self.faults = FaultInjector()
        self.realtime = RealtimeHub()
        self.bodyFaults = BodyFaultInjector()
        self.fleet = FleetLedger()
        self.store = RadarStore(seed: configuration.seed, demoOwnerId: AccountDirectory.demoAccountId, updates: realtime.feed)
        self.auth = AuthService(
            demoEmail: configuration.demoEmail,
            demoPassword: configuration.demoPassword,
            demoAPIKey: configuration.demoAPIKey,
            accessTokenLifetime: configuration.accessTokenLifetime,
            hasher: PasswordHasher(rounds: configuration.passwordHashRounds),
            throttle: LoginThrottle(
                failureLimit: configuration.loginFailureLimit,
                window: configuration.loginThrottleWindow.timeInterval
            )
        )
        self.requestCounter = RequestCounter()
        self.idempotencyStore = IdempotencyStore(
            maximumEntries: configuration.idempotencyKeyLimit,
            inFlightTimeout: configuration.idempotencyInFlightTimeout.timeInterval
        )
        self.intervalsStore = IntervalsStore(seed: configuration.seed)
        self.clarityStore = ClarityStore(seed: configuration.seed, analysisProcessingTime: configuration.analysisProcessingTime)
        self.clarityHealthStore = ClarityHealthStore(processingTime: configuration.analysisProcessingTime)
        self.blobCatalog = BlobCatalog()
        self.connectionDrain = configuration.http2?.goAwayAfterRequests.map(ConnectionDrainMiddleware.init(limit:))
        self.logger = ShutdownNoiseFilter.wrapping(configuration.effectiveLogger)
    }

    /// The address the server listens on, such as `http://127.0.0.1:54321`, or `nil` when it is not listening.
    public var baseURL: URL? {
        phase.withLock { phase in
            if case .running(_, let url) = phase { return url }
            return nil
        }
    }

    /// Binds and starts serving; returns once the listening socket accepts connections.
    ///
    /// Calling it while the server is running returns the current URL; calling it while it is
    /// starting waits for that start; calling it while it is stopping waits for the stop, then starts again.
    /// - Returns: The base URL, `http://HOST:PORT`, with the port actually bound.
    /// - Throws: The bind error (for example, port in use) or ``StartError``.
    @discardableResult
    public func start() async throws -> URL {
        while true {
            switch beginStart() {
            case .ready(let url):
                return url
            case .waitForStartup(let startup):
                return try await startup.value
            case .waitForShutdown(let shutdown):
                await shutdown.value
            }
        }
    }

    /// Stops listening, closes open connections and waits until the server has finished.
    ///
    /// In-flight handlers are cancelled (a `/debug/slow` wait ends at once). Calling it when the
    /// server is not running does nothing; concurrent calls all wait for the same shutdown.
    /// After it returns, the port is closed.
    public func stop() async {
        let shutdown: Task<Void, Never>? = phase.withLock { phase in
            switch phase {
            case .idle:
                return nil
            case .stopping(let shutdown):
                return shutdown
            case .starting(let startup, let server):
                server.cancel()
                let shutdown = Task { _ = await server.result; _ = await startup.result }
                phase = .stopping(shutdown: shutdown)
                return shutdown
            case .running(let server, _):
                server.cancel()
                let shutdown = Task { _ = await server.result }
                phase = .stopping(shutdown: shutdown)
                return shutdown
            }
        }
        guard let shutdown else { return }
        await shutdown.value
        phase.withLock { phase in
            if case .stopping(let current) = phase, current == shutdown {
                phase = .idle
            }
        }
    }

    /// Starts the server if needed and serves until the calling task is cancelled, then stops it.
    ///
    /// Made for `courier serve`; returns normally on cancellation.
    /// - Throws: A start failure, or the error that ended the server early.
    public func run() async throws {
        try await start()
        guard let server = currentServerTask() else { return }
        let result = await withTaskCancellationHandler {
            await server.result
        } onCancel: {
            server.cancel()
        }
        let wasCancelled = Task.isCancelled
        await stop()
        if case .failure(let error) = result, !wasCancelled, !(error is CancellationError) {
            throw error
        }
    }

    // MARK: - Lifecycle steps

    private enum StartStep {
        case ready(URL)
        case waitForStartup(Task<URL, any Error>)
        case waitForShutdown(Task<Void, Never>)
    }

    private func beginStart() -> StartStep {
        phase.withLock { phase in
            switch phase {
            case .running(_, let url):
                return .ready(url)
            case .starting(let startup, _):
                return .waitForStartup(startup)
            case .stopping(let shutdown):
                return .waitForShutdown(shutdown)
            case .idle:
                let (startup, server) = launch()
                phase = .starting(startup: startup, server: server)
                return .waitForStartup(startup)
            }
        }
    }

    private func currentServerTask() -> Task<Void, any Error>? {
        phase.withLock { phase in
            switch phase {
            case .running(let server, _), .starting(_, let server): return server
            case .idle, .stopping: return nil
            }
        }
    }

    /// How connections are served: plain HTTP/1.1 (with WebSocket upgrades); HTTPS on HTTP/1.1;
    /// or, with ``ReferenceServerConfiguration/http2``, HTTPS offering `h2` and `http/1.1` by ALPN.
    private static func serverBuilder(
        _ configuration: ReferenceServerConfiguration,
        http1: HTTPServerBuilder,
        upgrade: RealtimeUpgrade
    ) throws -> HTTPServerBuilder {
        guard let tls = configuration.tlsConfiguration else { return http1 }
        guard configuration.http2 != nil else { return try .tls(http1, tlsConfiguration: tls) }
        return HTTPServerBuilder { responder in
            try ReferenceSecureChannel(
                tlsConfiguration: tls,
                http1: HTTP1WebSocketUpgradeChannel(
                    responder: responder,
                    configuration: .init(ws: RealtimeUpgrade.configuration)
                ) { request, channel, _ in
                    await upgrade.shouldUpgrade(request, channel: channel)
                },
                http2: HTTP2Channel(responder: responder)
            )
        }
    }

    /// Creates the application and the tasks that run it and wait for it to listen.
    private func launch() -> (startup: Task<URL, any Error>, server: Task<Void, any Error>) {
        let (boundPorts, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let builder = ReferenceRouterBuilder(
            store: store,
            auth: auth,
            faults: faults,
            counter: requestCounter,
            idempotency: idempotencyStore,
            intervals: intervalsStore,
            clarity: clarityStore,
            realtime: realtime,
            clarityHealth: clarityHealthStore,
            bodyFaults: bodyFaults,
            blobs: blobCatalog,
            fleet: fleet,
            enablesDebugRoutes: configuration.enablesDebugRoutes,
            tracer: configuration.tracer,
            connectionDrain: connectionDrain
        )
        let upgrade = RealtimeUpgrade(hub: realtime, store: store, auth: auth, enablesDebugRoutes: configuration.enablesDebugRoutes)
        let http1: HTTPServerBuilder = .http1WebSocketUpgrade(configuration: .init(ws: RealtimeUpgrade.configuration)) { request, channel, _ in
            await upgrade.shouldUpgrade(request, channel: channel)
        }
        let router: Router<ReferenceRequestContext>
        let serverBuilder: HTTPServerBuilder
        do {
            router = try builder.build()
            serverBuilder = try Self.serverBuilder(configuration, http1: http1, upgrade: upgrade)
        } catch {
            portContinuation.finish()
            let failed = Task<Void, any Error> { throw error }
            return (Task { throw error }, failed)
        }
        let application = Application(
            router: router,
            server: serverBuilder,
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: "Courier-ReferenceServer"
            ),
            onServerRunning: { channel in
                if let port = channel.localAddress?.port {
                    portContinuation.yield(port)
                }
                portContinuation.finish()
            },
            logger: logger
        )
        let server = Task {
            defer { portContinuation.finish() }
            try await application.run()
        }
        let host = configuration.host
        let scheme = configuration.tlsConfiguration == nil ? "http" : "https"
        let startup = Task { [self] in
            var ports = boundPorts.makeAsyncIterator()
            guard let port = await ports.next() else {
                let outcome = await server.result
                markIdle(ifStarting: server)
                if case .failure(let error) = outcome { throw error }
                throw StartError(description: "the server stopped before it was listening")
            }
            guard let url = Self.baseURL(scheme: scheme, host: host, port: port) else {
                server.cancel()
                _ = await server.result
                markIdle(ifStarting: server)
                throw StartError(description: "cannot form a URL from host \(host) and port \(port)")
            }
            markRunning(server: server, url: url)
            logger.info("reference server listening on \(url.absoluteString)")
            return url
        }
        return (startup, server)
    }

    private func markRunning(server: Task<Void, any Error>, url: URL) {
        phase.withLock { phase in
            if case .starting(_, let current) = phase, current == server {
                phase = .running(server: server, url: url)
            }
        }
    }

    private func markIdle(ifStarting server: Task<Void, any Error>) {
        phase.withLock { phase in
            if case .starting(_, let current) = phase, current == server {
                phase = .idle
            }
        }
    }

    /// `http://host:port`, with a wildcard host replaced by loopback and IPv6 hosts bracketed.
    static func baseURL(scheme: String = "http", host: String, port: Int) -> URL? {
        let reachableHost: String
        switch host {
        case "0.0.0.0", "": reachableHost = "127.0.0.1"
        case "::": reachableHost = "[::1]"
        default: reachableHost = host.contains(":") ? "[\(host)]" : host
        }
        return URL(string: "\(scheme)://\(reachableHost):\(port)")
    }
}
