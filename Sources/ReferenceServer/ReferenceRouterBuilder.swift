import Foundation
import Hummingbird
import Tracing

/// Assembles the server's router, whose middleware runs in this order for every request:
///
/// 1. ``RequestCountingMiddleware``: every request is counted as it arrives;
/// 2. ``FaultInjectionMiddleware``: a scripted fault answers, delays or drops it, and
///    ``BodyFaultMiddleware``: a scripted cut closes the connection in the middle of the body;
/// 3. ``APIErrorMiddleware``: errors, Hummingbird's "no such route" included, become JSON, and
///    ``TrailingSlashRedirectMiddleware``: CLARITY's collections without their slash answer 307;
/// 4. ``RequestDecompressionMiddleware``: a compressed body is refused with 415 unless its route
///    takes gzip; the route groups' own one (and, for CLARITY, ``ClarityCallMiddleware``) inflates
///    it, after their access check.
///
/// Then the routes: CLARITY's backend (every operation of its published document, through the
/// generated server protocol: ``ClarityService``, with its own access checks); the intervals routes
/// (`/api/v1/athlete/…`, `/api/v1/activity/…`) behind ``IntervalsAccessMiddleware`` and its
/// OAuth token endpoint (`/api/oauth/token`); everything else under `/api` behind
/// ``AccessTokenMiddleware``; the fleet origin under `/fleet` (``FleetRoutes``, counted by
/// ``FleetLedger``); and, only when ``enablesDebugRoutes`` is set, the
/// diagnostic and control routes under `/debug` (otherwise those paths answer the JSON 404).
struct ReferenceRouterBuilder: Sendable {
    let store: RadarStore
    let auth: AuthService
    let faults: FaultInjector
    let counter: RequestCounter
    let idempotency: IdempotencyStore
    let intervals: IntervalsStore
    let clarity: ClarityStore
    let realtime: RealtimeHub
    let clarityHealth: ClarityHealthStore
    let bodyFaults: BodyFaultInjector
    let blobs: BlobCatalog
    /// What the fleet origin's routes saw; see ``FleetLedger``.
    let fleet: FleetLedger
    /// Whether the `/debug` routes are mounted; see ``ReferenceServerConfiguration/enablesDebugRoutes``.
    let enablesDebugRoutes: Bool
    /// The tracer of server spans; see ``ReferenceServerConfiguration/tracer``.
    var tracer: (any Tracer)? = nil
    /// Drains HTTP/2 connections after a number of requests; see ``HTTP2Options``.
    var connectionDrain: ConnectionDrainMiddleware? = nil

    /// Builds a router; unknown routes answer a JSON 404.
    /// - Throws: What registering the generated CLARITY handlers throws (a server URL it cannot
    ///   read, which the fixed one never is).
    func build() throws -> Router<ReferenceRequestContext> {
        let router = Router(context: ReferenceRequestContext.self)
        // Added first so that they wrap every route, the not-found responder included.
        if let tracer { router.add(middleware: ServerTracingMiddleware(tracer: tracer)) }
        router.add(middleware: RequestCountingMiddleware(counter: counter))
        if let connectionDrain { router.add(middleware: connectionDrain) }
        router.add(middleware: FaultInjectionMiddleware(faults: faults))
        router.add(middleware: BodyFaultMiddleware(faults: bodyFaults))
        router.add(middleware: APIErrorMiddleware())
        router.add(middleware: TrailingSlashRedirectMiddleware())
        router.add(middleware: RequestDecompressionMiddleware(decodes: false))

        OpenAPIDocumentRoute.register(on: router)
        try ClarityService(auth: auth, clarity: clarity, health: clarityHealth, enablesDebugRoutes: enablesDebugRoutes, startedAt: Date())
            .register(on: router, idempotency: idempotency)

        let api = router.group("api").add(middleware: AccessTokenMiddleware(auth: auth)).add(middleware: RequestDecompressionMiddleware(decodes: true))
        RadarRoutes(store: store, idempotency: IdempotentWrite(store: idempotency)).register(on: api)
        RadarEventStreamRoutes(store: store, hub: realtime).register(on: api)

        // intervals.icu's routes take its own credentials: an API key (Basic API_KEY:<key>) or
        // a bearer token, renewed at its OAuth token endpoint.
        let intervalsAPI = router.group("api/v1").add(middleware: IntervalsAccessMiddleware(auth: auth))
            .add(middleware: RequestDecompressionMiddleware(decodes: true))
        IntervalsRoutes(store: intervals).register(on: intervalsAPI)
        IntervalsOAuthRoutes(auth: auth, store: intervals).register(on: router)

        // The fleet origin, with credentials of its own (a fixed account token, one shared OAuth
        // credential installed by its setup route), for benchmarks of several client processes.
        FleetRoutes(fleet: fleet).register(on: router)

        if enablesDebugRoutes {
            let debug = router.group("debug").add(middleware: RequestDecompressionMiddleware(decodes: true))
            DebugRoutes().register(on: debug)
            // How many HTTP/2 connections were drained, for a client in another process (the bench).
            let drain = connectionDrain
            debug.get("http2/goaways") { _, _ in try Response.json(["goaways": drain?.goAwaysSent ?? 0]) }
            DebugTransferRoutes().register(on: debug)
            DebugEncodedRoutes().register(on: debug)
            DebugBlobRoutes(catalog: blobs).register(on: debug)
            DebugUploadRoutes().register(on: debug)
            DebugFaultRoutes(faults: faults, bodyFaults: bodyFaults, counter: counter).register(on: debug)
            DebugAuthRoutes(auth: auth).register(on: debug)
            DebugRealtimeRoutes(hub: realtime).register(on: debug)
        }
        return router
    }
}
