import ClarityOpenAPI
import Foundation
import OpenAPIRuntime

/// CLARITY's PAT analysis, as the backend's document gives it:
///
/// - `POST /api/v1/pat/step-analysis` (`StepDataRequest`) and `POST /api/v1/pat/analysis`
///   (`DirectActigraphyRequest`, each data point an object with a numeric `value`) answer an
///   `AnalysisResponse`: `analysis_id`, `status`, and the `analysis` once it is complete (at
///   once, unless ``ReferenceServerConfiguration/analysisProcessingTime`` says otherwise);
/// - `GET /api/v1/pat/analysis/{processing_id}` answers a `PATAnalysisResponse`; a completed one
///   never changes, so it is cacheable for a day (`immutable`) and revalidated by its `ETag`;
/// - `GET /api/v1/pat/health` answers a `HealthCheckResponse`, `GET /api/v1/pat/models/info`
///   what the model is and takes.
///
/// The results are synthetic (``ActigraphySynthesizer``) but deterministic for the same samples.
extension ClarityService {
    func analyzeStepDataApiV1PatStepAnalysisPost(_ input: Operations.AnalyzeStepDataApiV1PatStepAnalysisPost.Input) async throws -> Operations.AnalyzeStepDataApiV1PatStepAnalysisPost.Output {
        let userId = try ClarityCall.userId()
        guard case .json(let body) = input.body else { throw APIError.requestInvalid("missing", at: ["body"], "Field required") }
        try Self.validate(count: body.stepCounts.count, field: "step_counts")
        guard body.timestamps.count == body.stepCounts.count else {
            throw APIError.requestInvalid("value_error", at: ["body", "timestamps"], "step_counts and timestamps must have the same length")
        }
        guard body.stepCounts.allSatisfy({ $0 >= 0 }) else {
            throw APIError.requestInvalid("value_error", at: ["body", "step_counts"], "step counts must not be negative")
        }
        let answer = try await submitted(
            values: body.stepCounts.map(Double.init), samplesPerMinute: Self.samplesPerMinute(body.timestamps), kind: .stepData, userId: userId
        )
        return .ok(.init(body: .json(answer)))
    }

    func analyzeActigraphyDataApiV1PatAnalysisPost(_ input: Operations.AnalyzeActigraphyDataApiV1PatAnalysisPost.Input) async throws -> Operations.AnalyzeActigraphyDataApiV1PatAnalysisPost.Output {
        let userId = try ClarityCall.userId()
        guard case .json(let body) = input.body else { throw APIError.requestInvalid("missing", at: ["body"], "Field required") }
        try Self.validate(count: body.dataPoints.count, field: "data_points")
        let rate = body.samplingRate ?? 1
        guard rate > 0, rate <= 60 else {
            throw APIError.requestInvalid("value_error", at: ["body", "sampling_rate"], "sampling_rate must be in (0, 60] per minute")
        }
        let values = try body.dataPoints.map { point -> Double in
            guard let value = Self.number(point.value["value"] ?? nil), value >= 0, value.isFinite else {
                throw APIError.requestInvalid("value_error", at: ["body", "data_points"], "every data point needs a finite, non-negative \"value\"")
            }
            if let timestamp = point.value["timestamp"] ?? nil {
                guard let text = timestamp as? String, APIJSON.parseISO8601(text) != nil else {
                    throw APIError.requestInvalid("value_error", at: ["body", "data_points"], "a data point's timestamp must be an ISO 8601 date-time")
                }
            }
            return value
        }
        return .ok(.init(body: .json(try await submitted(values: values, samplesPerMinute: rate, kind: .actigraphy, userId: userId))))
    }

    func getPatAnalysisApiV1PatAnalysisProcessingIdGet(_ input: Operations.GetPatAnalysisApiV1PatAnalysisProcessingIdGet.Input) async throws -> Operations.GetPatAnalysisApiV1PatAnalysisProcessingIdGet.Output {
        let id = input.path.processingId
        guard let analysis = await clarity.analysis(id: id, ownerId: try ClarityCall.userId(), at: Date()) else {
            throw APIError.notFound("no analysis \(id)")
        }
        let call = try ClarityCall.running()
        if analysis.status == .completed {
            call.cacheable(cacheControl: Self.completedCacheControl, lastModified: analysis.completedAt)
        } else {
            call.respond(.cacheControl, "no-store")
            call.respond(.retryAfter, "1")
        }
        return .ok(.init(body: .json(ClarityWire.patAnalysis(analysis))))
    }

    func healthCheckApiV1PatHealthGet(_ input: Operations.HealthCheckApiV1PatHealthGet.Input) async throws -> Operations.HealthCheckApiV1PatHealthGet.Output {
        _ = try ClarityCall.userId()
        let health = Components.Schemas.HealthCheckResponse(
            inferenceEngine: ClarityWire.object(["kind": "synthetic", "analyses_completed": await clarity.completedAnalyses]),
            patModel: ClarityWire.object(["name": "PAT-M (synthetic)", "maximum_samples": Self.maximumSamples]),
            service: "pat-analysis", status: "healthy", timestamp: ClarityWire.timestamp(Date()), version: "1.0.0"
        )
        try ClarityCall.running().respond(.cacheControl, "no-store")
        return .ok(.init(body: .json(health)))
    }

    func getModelInfoApiV1PatModelsInfoGet(_ input: Operations.GetModelInfoApiV1PatModelsInfoGet.Input) async throws -> Operations.GetModelInfoApiV1PatModelsInfoGet.Output {
        _ = try ClarityCall.userId()
        return .ok(.init(body: .json(ClarityWire.object([
            "model_type": "PAT", "version": "1.0.0", "initialized": true,
            "capabilities": ["actigraphy_analysis", "sleep_pattern_detection", "circadian_rhythm_analysis", "activity_classification"],
            "input_requirements": [
                "sampling_rate": "1 sample per minute", "duration": "24-168 hours", "data_format": "ActigraphyDataPoint",
                "maximum_samples": Self.maximumSamples,
            ] as [String: (any Sendable)?],
            "performance": ["analyses_completed": await clarity.completedAnalyses, "engine": "synthetic"] as [String: (any Sendable)?],
        ]))))
    }

    private func submitted(values: [Double], samplesPerMinute: Double, kind: AnalysisKind, userId: String) async throws -> Components.Schemas.AnalysisResponse {
        let started = Date()
        let analysis = await clarity.submit(values: values, samplesPerMinute: samplesPerMinute, kind: kind, ownerId: userId, at: started)
        try ClarityCall.running().respond(.location, "/api/v1/pat/analysis/\(analysis.processingId)")
        return ClarityWire.submission(analysis, userId: userId, elapsed: Date().timeIntervalSince(started))
    }

    private static func validate(count: Int, field: String) throws {
        guard count > 0 else { throw APIError.requestInvalid("value_error", at: ["body", field], "at least one sample is needed") }
        guard count <= maximumSamples else {
            throw APIError.requestInvalid("value_error", at: ["body", field], "at most \(maximumSamples) samples are analysed at once")
        }
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
