public import ClarityOpenAPI

// The CLARITY backend's wire types, generated from its published document
// (`ClarityOpenAPI`), under the names seed 002's checklist gives them. Their fields are the
// document's, snake_case on the wire and camelCase in Swift (`accessToken` for `access_token`).

/// `POST /api/v1/auth/login`, `/register` and `/refresh` answer a token pair: `TokenResponse`.
public typealias ClarityTokens = Components.Schemas.TokenResponse
/// The signed-in user, `GET /api/v1/auth/me`: `UserInfoResponse` (`user_id`, `email`,
/// `email_verified`, `display_name`, `auth_provider`).
public typealias ClarityUserInfo = Components.Schemas.UserInfoResponse
/// `POST /api/v1/auth/logout`'s answer: `LogoutResponse {message}`.
public typealias ClarityLogoutResponse = Components.Schemas.LogoutResponse
/// `POST /api/v1/auth/confirm-email`'s answer: `StatusResponse {status}`.
public typealias ClarityStatusResponse = Components.Schemas.StatusResponse
/// A HealthKit upload, `POST /api/v1/healthkit/`: `HealthKitUploadRequest`.
public typealias HealthKitUploadRequest = Components.Schemas.HealthKitUploadRequest
/// One HealthKit sample of an upload: `HealthKitSample`.
public typealias HealthKitSample = Components.Schemas.HealthKitSample
/// The receipt of a HealthKit upload (202): `HealthKitUploadResponse`.
public typealias HealthKitUploadResponse = Components.Schemas.HealthKitUploadResponse
/// A batch of health metrics, `POST /api/v1/health-data/`: `HealthDataUpload`.
public typealias HealthDataUpload = Components.Schemas.HealthDataUpload
/// One health metric: `HealthMetric`; its `metricType` reads as a ``HealthMetricKind``.
public typealias HealthMetric = Components.Schemas.HealthMetric
/// The answer to a health-data upload (201): `HealthDataResponse`.
public typealias HealthDataResponse = Components.Schemas.HealthDataResponse
/// Step counts for PAT analysis, `POST /api/v1/pat/step-analysis`: `StepDataRequest`.
public typealias StepDataRequest = Components.Schemas.StepDataRequest
/// Actigraphy samples, `POST /api/v1/pat/analysis`: `DirectActigraphyRequest`.
public typealias DirectActigraphyRequest = Components.Schemas.DirectActigraphyRequest
/// A PAT analysis as submitted: `AnalysisResponse` (its `analysis` once complete).
public typealias AnalysisResponse = Components.Schemas.AnalysisResponse
/// The results of a PAT analysis: `ActigraphyAnalysis`.
public typealias ActigraphyAnalysis = Components.Schemas.ActigraphyAnalysis
/// A PAT analysis read back, `GET /api/v1/pat/analysis/{processing_id}`: `PATAnalysisResponse`.
public typealias PATAnalysisResponse = Components.Schemas.PATAnalysisResponse
/// The PAT service's health, `GET /api/v1/pat/health`: `HealthCheckResponse`.
public typealias PATServiceHealth = Components.Schemas.HealthCheckResponse
/// What to write an insight from, `POST /api/v1/insights/`: `InsightGenerationRequest`.
public typealias InsightGenerationRequest = Components.Schemas.InsightGenerationRequest
/// An insight, wrapped as the service answers it: `InsightGenerationResponse {success, data, metadata}`.
public typealias InsightGenerationResponse = Components.Schemas.InsightGenerationResponse
/// An insight itself: `HealthInsightResponse`.
public typealias HealthInsight = Components.Schemas.HealthInsightResponse
