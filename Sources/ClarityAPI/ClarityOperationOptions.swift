import ClarityOpenAPI
import Courier

/// The Courier options of each CLARITY operation, by the document's operation id: which go
/// out unsigned, which may be queued offline with an idempotency key, what a write makes stale
/// in the cache, what is personal data that logs never show.
enum ClarityOperationOptions {
    /// The idempotency key of the write being made, set around one call with `withValue`.
    @TaskLocal static var idempotencyKey: String?

    /// The options for one operation.
    static func options(for operationID: String) -> RequestOptions {
        var options = RequestOptions()
        switch operationID {
        case Operations.RegisterApiV1AuthRegisterPost.id, Operations.LoginApiV1AuthLoginPost.id,
             Operations.ConfirmEmailApiV1AuthConfirmEmailPost.id, Operations.ResendConfirmationApiV1AuthResendConfirmationPost.id:
            options.requiresAuth = false
            options.retryPolicy = RetryPolicy.none
            options.bodyIsPersonalData = true
        case Operations.LogoutApiV1AuthLogoutPost.id:
            options.retryPolicy = RetryPolicy.none
        case Operations.UploadHealthDataApiV1HealthDataPost.id:
            options.isQueueable = true
            options.idempotencyKey = idempotencyKey
            options.bodyIsPersonalData = true
            options.compressesRequestBody = true
            options.invalidates = ["/api/v1/health-data/"]
        case Operations.UploadHealthkitDataApiV1HealthkitPost.id:
            options.isQueueable = true
            options.idempotencyKey = idempotencyKey
            options.bodyIsPersonalData = true
            options.compressesRequestBody = true
        case Operations.AnalyzeStepDataApiV1PatStepAnalysisPost.id, Operations.AnalyzeActigraphyDataApiV1PatAnalysisPost.id:
            options.bodyIsPersonalData = true
        case Operations.GenerateInsightsApiV1InsightsPost.id:
            options.bodyIsPersonalData = true
            options.invalidates = ["/api/v1/insights/history/"]
        default:
            break
        }
        return options
    }
}
