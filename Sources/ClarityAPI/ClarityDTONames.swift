public import ClarityCore
public import Courier

// Seed 002's endpoint checklist names a DTO for every request and response. These aliases
// give each checklist name its Courier type, so code written against the document reads the
// same; the table in README's "The apps' wire contract" maps each checklist method too.

/// `register(requestDTO:)`'s body: `RegisterRequest`.
public typealias UserRegistrationRequestDTO = RegisterRequest
/// `register`'s answer: the new user's tokens, `TokenResponse`.
public typealias RegistrationResponseDTO = TokenResponse
/// `login(requestDTO:)`'s body: `LoginRequest`.
public typealias UserLoginRequestDTO = LoginRequest
/// `login`'s answer: `TokenResponse`.
public typealias LoginResponseDTO = TokenResponse
/// `refreshToken(requestDTO:)`'s body: `RefreshTokenRequest`.
public typealias RefreshTokenRequestDTO = RefreshTokenRequest
/// `refreshToken`'s answer: `TokenResponse`.
public typealias TokenResponseDTO = TokenResponse
/// The answer of `logout()` and `verifyEmail(code:)`: `MessageResponse`.
public typealias MessageResponseDTO = MessageResponse
/// `getCurrentUser()`'s answer: `ClarityUser`.
public typealias UserSessionResponseDTO = ClarityUser
/// `uploadHealthKit(requestDTO:)`'s body: `HealthKitUploadRequest`.
public typealias HealthKitUploadRequestDTO = HealthKitUploadRequest
/// `uploadHealthKit`'s answer: `HealthKitUploadResponse`.
public typealias HealthKitUploadResponseDTO = HealthKitUploadResponse
/// `getHealthKitUploadStatus(uploadId:)`'s answer: `HealthKitUploadStatus`.
public typealias HealthKitUploadStatusDTO = HealthKitUploadStatus
/// `uploadHealthData(requestDTO:)`'s body: `HealthDataUpload`.
public typealias HealthDataUploadDTO = HealthDataUpload
/// `uploadHealthData`'s answer: `HealthDataProcessing`.
public typealias HealthDataResponseDTO = HealthDataProcessing
/// `getHealthData(page:limit:)`'s answer: a `{data, meta}` page of `HealthMetric`.
public typealias PaginatedMetricsResponseDTO = PaginatedResponse<HealthMetric>
/// `getProcessingStatus(id:)`'s answer: `HealthDataProcessing`.
public typealias ProcessingStatusDTO = HealthDataProcessing
/// `analyzeStepData(requestDTO:)`'s body: `StepAnalysisRequest`.
public typealias StepDataRequestDTO = StepAnalysisRequest
/// `analyzeActigraphy(requestDTO:)`'s body: `ActigraphyAnalysisRequest`.
public typealias DirectActigraphyRequestDTO = ActigraphyAnalysisRequest
/// The results inside an analysis: `ActigraphyAnalysis`.
public typealias ActigraphyAnalysisDTO = ActigraphyAnalysis
/// `AnalysisResponseDTO<ActigraphyAnalysisDTO>`, the answer of both analysis calls:
/// `AnalysisResponse`, whose results are always an `ActigraphyAnalysis`,
/// so the document's generic parameter has one value and the alias takes none.
public typealias AnalysisResponseDTO = AnalysisResponse
/// `getPATAnalysis(id:)`'s answer: `AnalysisResponse`.
public typealias PATAnalysisResponseDTO = AnalysisResponse
/// `getPATServiceHealth()`'s answer: `ServiceStatus`.
public typealias PATServiceHealthDTO = ServiceStatus
/// `generateInsights(requestDTO:)`'s body: `InsightRequest`.
public typealias InsightGenerationRequestDTO = InsightRequest
/// The answer of `generateInsights` and `getInsight(id:)`: `Insight`.
public typealias InsightGenerationResponseDTO = Insight
/// `getInsightHistory(userId:limit:offset:)`'s answer: `InsightHistoryPage`.
public typealias InsightHistoryResponseDTO = InsightHistoryPage
/// `getInsightsServiceStatus()`'s answer: `ServiceStatus`.
public typealias ServiceStatusResponseDTO = ServiceStatus
