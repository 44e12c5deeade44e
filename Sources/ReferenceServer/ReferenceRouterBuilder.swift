import Hummingbird

/// Assembles the server's router: the error middleware around everything, the Radar API
/// behind bearer authentication under `/api`, and the diagnostic routes under `/debug`.
struct ReferenceRouterBuilder: Sendable {
    let store: RadarStore
    let demoToken: String

    /// Builds a router; unknown routes answer a JSON 404.
    func build() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        // Added first so that it wraps every route, the not-found responder included.
        router.add(middleware: APIErrorMiddleware())

        let api = router.group("api").add(middleware: BearerAuthMiddleware(expectedToken: demoToken))
        RadarRoutes(store: store).register(on: api)

        let debug = router.group("debug")
        DebugRoutes().register(on: debug)
        DebugTransferRoutes().register(on: debug)
        return router
    }
}
