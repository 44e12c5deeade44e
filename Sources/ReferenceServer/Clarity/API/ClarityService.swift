import ClarityOpenAPI
import ClarityOpenAPIServer
import Foundation
import Hummingbird
import OpenAPIHummingbird
import OpenAPIRuntime

/// CLARITY's backend as the reference server implements it: the `APIProtocol` generated from
/// the backend's published document (`Contracts/clarity-backend/openapi.json`), so every
/// operation of the document is a method here, its input and output the document's types.
///
/// The operations live in extensions by concern: authentication (`+Auth`), health data
/// (`+HealthData`), HealthKit uploads (`+HealthKit`), PAT analysis (`+Analysis`), insights
/// (`+Insights`), and the service's info, health, metrics, chat and test routes (`+Service`).
///
/// What the generated code leaves to its user runs in swift-openapi-runtime middlewares:
/// ``ClarityCallMiddleware`` checks the caller's token and passes the caller to the handlers
/// (``ClarityCall``), bounds and inflates bodies, and adds caching headers;
/// ``ClarityIdempotencyMiddleware`` keeps `Idempotency-Key` answers. Failures are ``APIError``s,
/// which ``APIErrorMiddleware`` answers in CLARITY's error shapes; a request the generated code
/// cannot read is a 422, as FastAPI answers it.
///
/// Where the service's routes answer what the document does not list (the auth routes' 401,
/// 403, 409 and 429, a 404 for an unknown id, the 400 of a wrong reset code), the handlers
/// answer as the service does; the README's CLARITY section lists these.
struct ClarityService: APIProtocol {
    /// The largest HealthKit upload accepted, decoded.
    static let maximumHealthKitUploadBytes = 64 << 20
    /// The most metrics one health data upload holds.
    static let maximumMetrics = 1_000
    /// The largest health data page.
    static let maximumHealthDataPage = 100
    /// The most samples analysed at once: two weeks of minutes.
    static let maximumSamples = 20_160
    /// The `Cache-Control` of a completed analysis or an insight, which never change.
    static let completedCacheControl = "private, max-age=86400, immutable"
    /// The most insights one history page holds.
    static let maximumInsightPage = 100

    let auth: AuthService
    let clarity: ClarityStore
    let health: ClarityHealthStore
    /// Whether the development-only debug routes answer (the real deployment leaves them out:
    /// FastAPI then answers 404 `{"detail": "Not Found"}`); see ``ReferenceServerConfiguration/enablesDebugRoutes``.
    let enablesDebugRoutes: Bool
    /// When the server started, for the service's uptime.
    let startedAt: Date

    /// Registers every operation of the document on a router, with the middlewares above.
    func register(on router: Router<ReferenceRequestContext>, idempotency: IdempotencyStore) throws {
        try registerHandlers(
            on: router,
            configuration: Configuration(dateTranscoder: ClarityDateTranscoder(), jsonEncodingOptions: [.sortedKeys, .withoutEscapingSlashes]),
            // In this order: the idempotency middleware reads the call the first one binds.
            middlewares: [ClarityCallMiddleware(auth: auth), ClarityIdempotencyMiddleware(store: idempotency)]
        )
    }

    /// A 422 for a value out of its range, located as FastAPI locates it.
    static func outOfRange(_ name: String, in place: String = "query", _ message: String) -> APIError {
        .requestInvalid("value_error", at: [place, name], message)
    }
}
