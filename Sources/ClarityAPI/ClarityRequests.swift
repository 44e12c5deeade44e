public import ClarityOpenAPI
public import Foundation
import OpenAPIRuntime

extension Components.Schemas.StepDataRequest {
    /// Step counts taken once a minute from `start`: seed 002's step data, with a timestamp each.
    /// - Parameters:
    ///   - counts: The steps of each minute.
    ///   - start: The first minute.
    public static func minutely(_ counts: [Int], from start: Date) -> Self {
        Self(stepCounts: counts, timestamps: counts.indices.map { start.addingTimeInterval(Double($0) * 60) })
    }
}

extension Components.Schemas.DirectActigraphyRequest {
    /// Actigraphy samples, each sent as `{"value": …}`.
    /// - Parameters:
    ///   - values: The activity counts.
    ///   - samplingRate: Samples per minute.
    ///   - durationHours: How long the recording lasted, in hours.
    public static func samples(_ values: [Double], samplingRate: Double = 1, durationHours: Int? = nil) throws -> Self {
        Self(dataPoints: try values.map { try OpenAPIObjectContainer(unvalidatedValue: ["value": $0]) }, durationHours: durationHours, samplingRate: samplingRate)
    }
}

extension Components.Schemas.InsightGenerationRequest {
    /// An insight written from one of the user's analyses, named by its id in `analysis_results`.
    /// - Parameters:
    ///   - analysisId: The analysis (`analysis_id` of its submission).
    ///   - insightType: `comprehensive`, `sleep`, `activity` or `circadian`, as the service names them.
    ///   - includeRecommendations: Whether to add recommendations.
    public static func fromAnalysis(id analysisId: String, insightType: String = "comprehensive", includeRecommendations: Bool = true) throws -> Self {
        Self(
            analysisResults: try OpenAPIObjectContainer(unvalidatedValue: ["analysis_id": analysisId]),
            includeRecommendations: includeRecommendations, insightType: insightType
        )
    }
}

extension Components.Schemas.InsightGenerationResponse {
    /// The insight's id, which the service gives in `metadata.insight_id` (its
    /// `HealthInsightResponse` has none); `nil` when it is not there.
    public var insightId: String? {
        metadata.value["insight_id"] as? String
    }
}
