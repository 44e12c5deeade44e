import ClarityCore
import ClarityOpenAPI
import Foundation
import Hummingbird
import OpenAPIRuntime

/// CLARITY's PAT analysis, as the backend's document gives it:
///
/// - `POST /api/v1/pat/step-analysis` (`StepDataRequest`) and `POST /api/v1/pat/analysis`
///   (`DirectActigraphyRequest`, each data point an object with a numeric `value`) answer an
///   `AnalysisResponse`: `analysis_id`, `status`, and the `analysis` once it is complete (at
///   once, unless ``ReferenceServerConfiguration/analysisProcessingTime`` says otherwise);
/// - `GET /api/v1/pat/analysis/{processing_id}` answers a `PATAnalysisResponse`; a completed one
///   never changes, so it is cacheable for a day (`immutable`);
/// - `GET /api/v1/pat/health` answers a `HealthCheckResponse`.
///
/// The results are synthetic (``ActigraphySynthesizer``) but deterministic for the same samples.
struct ClarityAnalysisRoutes: Sendable {
    /// The most samples analysed at once: two weeks of minutes.
    static let maximumSamples = 20_160
    /// The `Cache-Control` of a completed analysis.
    static let completedCacheControl = "private, max-age=86400, immutable"

    let store: ClarityStore

    func register(on api: RouterGroup<ReferenceRequestContext>) {
        api.post("v1/pat/step-analysis") { request, context in
            let body = try await request.decodeJSONBody(as: Components.Schemas.StepDataRequest.self)
            try Self.validate(count: body.stepCounts.count)
            guard body.timestamps.count == body.stepCounts.count else {
                throw APIError.validationFailed("step_counts and timestamps must have the same length")
            }
            guard body.stepCounts.allSatisfy({ $0 >= 0 }) else { throw APIError.validationFailed("step counts must not be negative") }
            return try await submitted(
                values: body.stepCounts.map(Double.init), samplesPerMinute: Self.samplesPerMinute(body.timestamps), kind: .stepData, context: context
            )
        }
        api.post("v1/pat/analysis") { request, context in
            let body = try await request.decodeJSONBody(as: Components.Schemas.DirectActigraphyRequest.self)
            try Self.validate(count: body.dataPoints.count)
            let rate = body.samplingRate ?? 1
            guard rate > 0, rate <= 60 else { throw APIError.validationFailed("sampling_rate must be in (0, 60] per minute") }
            let values = try body.dataPoints.map { point -> Double in
                guard let value = Self.number(point.value["value"] ?? nil), value >= 0, value.isFinite else {
                    throw APIError.validationFailed("every data point needs a finite, non-negative \"value\"")
                }
                if let timestamp = point.value["timestamp"] ?? nil {
                    guard let text = timestamp as? String, APIJSON.parseISO8601(text) != nil else {
                        throw APIError.validationFailed("a data point's timestamp must be an ISO 8601 date-time")
                    }
                }
                return value
            }
            return try await submitted(values: values, samplesPerMinute: rate, kind: .actigraphy, context: context)
        }
        api.get("v1/pat/analysis/{id}") { request, context in
            let id = context.parameters.get("id") ?? ""
            guard let analysis = await store.analysis(id: id, ownerId: try context.requireUserId(), at: Date()) else {
                throw APIError.notFound("no analysis \(id)")
            }
            let answer = ClarityWire.patAnalysis(analysis)
            guard analysis.status == .completed else {
                return try Response.json(answer, headers: [.cacheControl: "no-store", .retryAfter: "1"])
            }
            return try Response.cacheableJSON(answer, for: request, cacheControl: Self.completedCacheControl, lastModified: analysis.completedAt)
        }
        api.get("v1/pat/health") { _, _ in
            let health = Components.Schemas.HealthCheckResponse(
                inferenceEngine: ClarityWire.object(["kind": "synthetic", "analyses_completed": await store.completedAnalyses]),
                patModel: ClarityWire.object(["name": "PAT-M (synthetic)", "maximum_samples": Self.maximumSamples]),
                service: "pat-analysis", status: "healthy", timestamp: ClarityWire.timestamp(Date()), version: "1.0.0"
            )
            return try Response.json(health, headers: [.cacheControl: "no-store"])
        }
    }

    private func submitted(values: [Double], samplesPerMinute: Double, kind: AnalysisKind, context: ReferenceRequestContext) async throws -> Response {
        let started = Date()
        let userId = try context.requireUserId()
        let analysis = await store.submit(values: values, samplesPerMinute: samplesPerMinute, kind: kind, ownerId: userId, at: started)
        return try Response.json(
            ClarityWire.submission(analysis, userId: userId, elapsed: Date().timeIntervalSince(started)),
            headers: [.location: "/api/v1/pat/analysis/\(analysis.processingId)"]
        )
    }

    private static func validate(count: Int) throws {
        guard count > 0 else { throw APIError.validationFailed("at least one sample is needed") }
        guard count <= maximumSamples else { throw APIError.validationFailed("at most \(maximumSamples) samples are analysed at once") }
    }

    private static func samplesPerMinute(_ timestamps: [Date]) -> Double {
        let gaps = zip(timestamps, timestamps.dropFirst()).map { $1.timeIntervalSince($0) }.filter { $0 > 0 }.sorted()
        guard !gaps.isEmpty else { return 1 }
        return 60 / gaps[gaps.count / 2]
    }

    private static func number(_ value: (any Sendable)?) -> Double? {
        switch value {
        case let number as Double: number
        case let number as Int: Double(number)
        default: nil
        }
    }
}
