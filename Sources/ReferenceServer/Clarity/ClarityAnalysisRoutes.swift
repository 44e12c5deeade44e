import ClarityCore
import Foundation
import Hummingbird

/// CLARITY's PAT analysis API under `/api/v1/pat`: analyse step data or actigraphy, read an
/// analysis by id, and the service's health.
///
/// Submitting answers `202 Accepted` with the analysis and its `Location`. Reading a completed
/// analysis is cacheable for a day and `immutable` (results never change); one still
/// processing is `no-store` with `Retry-After: 1`. A user reads only their own analyses.
struct ClarityAnalysisRoutes: Sendable {
    /// The most samples one analysis takes: two weeks of one-minute samples.
    static let maximumSamples = 20_160
    /// The `Cache-Control` of a completed analysis.
    static let completedCacheControl = "private, max-age=86400, immutable"

    let store: ClarityStore

    /// Adds the routes to a group mounted at `/api`, behind authentication.
    func register(on api: RouterGroup<ReferenceRequestContext>) {
        api.post("v1/pat/step-analysis") { request, context in
            let body = try await request.decodeJSONBody(as: StepAnalysisRequest.self)
            try Self.validate(count: body.stepCounts.count)
            guard body.timestamps.count == body.stepCounts.count else {
                throw APIError.validationFailed("stepCounts and timestamps must have the same length")
            }
            guard body.stepCounts.allSatisfy({ $0 >= 0 }) else { throw APIError.validationFailed("step counts must not be negative") }
            let perMinute = Self.samplesPerMinute(body.timestamps)
            return try await submitted(
                values: body.stepCounts.map(Double.init), samplesPerMinute: perMinute, kind: .stepData, context: context
            )
        }
        api.post("v1/pat/analysis") { request, context in
            let body = try await request.decodeJSONBody(as: ActigraphyAnalysisRequest.self)
            try Self.validate(count: body.dataPoints.count)
            guard body.samplingRate > 0, body.samplingRate <= 60 else { throw APIError.validationFailed("samplingRate must be in (0, 60] per minute") }
            guard body.durationHours > 0 else { throw APIError.validationFailed("durationHours must be positive") }
            guard body.dataPoints.allSatisfy({ $0.value >= 0 && $0.value.isFinite }) else {
                throw APIError.validationFailed("values must be finite and not negative")
            }
            return try await submitted(
                values: body.dataPoints.map(\.value), samplesPerMinute: body.samplingRate, kind: .actigraphy, context: context
            )
        }
        api.get("v1/pat/analysis/{id}") { request, context in
            let id = context.parameters.get("id") ?? ""
            guard let analysis = await store.analysis(id: id, ownerId: try context.requireUserId(), at: Date()) else {
                throw APIError.notFound("no analysis \(id)")
            }
            guard analysis.status == .completed else {
                return try Response.json(analysis, headers: [.cacheControl: "no-store", .retryAfter: "1"])
            }
            return try Response.cacheableJSON(analysis, for: request, cacheControl: Self.completedCacheControl, lastModified: analysis.completedAt)
        }
        api.get("v1/pat/health") { _, _ in
            let status = ServiceStatus(
                service: "pat-analysis", status: .healthy, modelVersion: "PAT-M (synthetic)", timestamp: Date(),
                details: ["analyses_completed": "\(await store.completedAnalyses)", "maximum_samples": "\(Self.maximumSamples)"]
            )
            return try Response.json(status, headers: [.cacheControl: "no-store"])
        }
    }

    private func submitted(values: [Double], samplesPerMinute: Double, kind: AnalysisKind, context: ReferenceRequestContext) async throws -> Response {
        let analysis = await store.submit(values: values, samplesPerMinute: samplesPerMinute, kind: kind, ownerId: try context.requireUserId(), at: Date())
        return try Response.json(analysis, status: .accepted, headers: [.location: "/api/v1/pat/analysis/\(analysis.processingId)"])
    }

    private static func validate(count: Int) throws {
        guard count > 0 else { throw APIError.validationFailed("at least one sample is needed") }
        guard count <= maximumSamples else { throw APIError.validationFailed("at most \(maximumSamples) samples are analysed at once") }
    }

    /// Samples per minute from timestamps: one a minute unless the median gap says otherwise.
    private static func samplesPerMinute(_ timestamps: [Date]) -> Double {
        let gaps = zip(timestamps, timestamps.dropFirst()).map { $1.timeIntervalSince($0) }.filter { $0 > 0 }.sorted()
        guard !gaps.isEmpty else { return 1 }
        return 60 / gaps[gaps.count / 2]
    }
}
