public import ClarityCore
public import Courier

// Seed 002's endpoint checklist names a DTO for every request and response. These aliases
// give each checklist name its Courier type, so code written against the document reads the
// same; the table in README's "The apps' wire contract" maps each checklist method too.

/// `register(requestDTO:)`'s body: ``ClarityCore/RegisterRequest``.
public typealias UserRegistrationRequestDTO = RegisterRequest
/// `register`'s answer: the new user's tokens, ``ClarityCore/TokenResponse``.
public typealias RegistrationResponseDTO = TokenResponse
/// `login(requestDTO:)`'s body: ``ClarityCore/LoginRequest``.
public typealias UserLoginRequestDTO = LoginRequest
/// `login`'s answer: ``ClarityCore/TokenResponse``.
public typealias LoginResponseDTO = TokenResponse
/// `refreshToken(requestDTO:)`'s body: ``ClarityCore/RefreshTokenRequest``.
public typealias RefreshTokenRequestDTO = RefreshTokenRequest
/// `refreshToken`'s answer: ``ClarityCore/TokenResponse``.
public typealias TokenResponseDTO = TokenResponse
/// The answer of `logout()` and `verifyEmail(code:)`: ``ClarityCore/MessageResponse``.
public typealias MessageResponseDTO = MessageResponse
/// `getCurrentUser()`'s answer: ``ClarityCore/ClarityUser``.
public typealias UserSessionResponseDTO = ClarityUser
/// `uploadHealthKit(requestDTO:)`'s body: ``ClarityCore/HealthKitUploadRequest``.
public typealias HealthKitUploadRequestDTO = HealthKitUploadRequest
/// `uploadHealthKit`'s answer: ``ClarityCore/HealthKitUploadResponse``.
public typealias HealthKitUploadResponseDTO = HealthKitUploadResponse
/// `getHealthKitUploadStatus(uploadId:)`'s answer: ``ClarityCore/HealthKitUploadStatus``.
public typealias HealthKitUploadStatusDTO = HealthKitUploadStatus
/// `uploadHealthData(requestDTO:)`'s body: ``ClarityCore/HealthDataUpload``.
public typealias HealthDataUploadDTO = HealthDataUpload
/// `uploadHealthData`'s answer: ``ClarityCore/HealthDataProcessing``.
public typealias HealthDataResponseDTO = HealthDataProcessing
/// `getHealthData(page:limit:)`'s answer: a `{data, meta}` page of ``ClarityCore/HealthMetric``.
public typealias PaginatedMetricsResponseDTO = PaginatedResponse<HealthMetric>
/// `getProcessingStatus(id:)`'s answer: ``ClarityCore/HealthDataProcessing``.
public typealias ProcessingStatusDTO = HealthDataProcessing
/// `analyzeStepData(requestDTO:)`'s body: ``ClarityCore/StepAnalysisRequest``.
public typealias StepDataRequestDTO = StepAnalysisRequest
/// `analyzeActigraphy(requestDTO:)`'s body: ``ClarityCore/ActigraphyAnalysisRequest``.
public typealias DirectActigraphyRequestDTO = ActigraphyAnalysisRequest
/// The results inside an analysis: ``ClarityCore/ActigraphyAnalysis``.
public typealias ActigraphyAnalysisDTO = ActigraphyAnalysis
/// `AnalysisResponseDTO<ActigraphyAnalysisDTO>`, the answer of both analysis calls:
/// ``ClarityCore/AnalysisResponse``, whose results are always an ``ClarityCore/ActigraphyAnalysis``,
/// so the document's generic parameter has one value and the alias takes none.
public typealias AnalysisResponseDTO = AnalysisResponse
/// `getPATAnalysis(id:)`'s answer: ``ClarityCore/AnalysisResponse``.
public typealias PATAnalysisResponseDTO = AnalysisResponse
/// `getPATServiceHealth()`'s answer: ``ClarityCore/ServiceStatus``.
public typealias PATServiceHealthDTO = ServiceStatus
/// `generateInsights(requestDTO:)`'s body: ``ClarityCore/InsightRequest``.
public typealias InsightGenerationRequestDTO = InsightRequest
/// The answer of `generateInsights` and `getInsight(id:)`: ``ClarityCore/Insight``.
public typealias InsightGenerationResponseDTO = Insight
/// `getInsightHistory(userId:limit:offset:)`'s answer: ``ClarityCore/InsightHistoryPage``.
public typealias InsightHistoryResponseDTO = InsightHistoryPage
/// `getInsightsServiceStatus()`'s answer: ``ClarityCore/ServiceStatus``.
public typealias ServiceStatusResponseDTO = ServiceStatus
