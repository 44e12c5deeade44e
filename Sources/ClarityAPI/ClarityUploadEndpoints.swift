public import ClarityCore
public import Courier
public import Foundation

/// CLARITY's HealthKit upload (`/api/v1/healthkit_upload`) and health data
/// (`/api/v1/health-data`) endpoints as typed requests, with paths relative to
/// ``ClarityAuthEndpoints/root``.
///
/// The writes drop every cached page of health data when they succeed
/// (`RequestOptions.invalidates`), so a list read after them is never stale.
///
/// The two uploads ask for a compressed body (`RequestOptions.compressesRequestBody`):
/// a client configured with a `ClientConfiguration.requestBodyCompressor`
/// (`CourierCompression`'s `GzipCompressor`) sends them gzipped, falling back to plain bodies
/// for a server that answers 415. Without one they go as they are, which is the default: the
/// CLARITY document does not say its server takes compressed bodies.
public enum ClarityUploadEndpoints {
    /// `POST /api/v1/healthkit_upload`: uploads a batch of HealthKit samples, a JSON
    /// `HealthKitUploadRequest`. Answers 202 with the upload's id, `queued`.
    /// Send it with `APIClient.upload(_:)` to follow its progress.
    /// - Parameter body: The document: `.json(upload)` from memory, or `try .file(url,
    ///   contentType: "application/json")` for one written to disk.
    public static func healthKitUpload(_ body: RequestBody) -> Request<HealthKitUploadResponse> {
        Request(
            method: .post, path: "/healthkit_upload", body: body,
            options: compressed(personal(RequestOptions(invalidates: ["/health-data"]))), name: "clarity.healthkit.upload"
        )
    }

    /// `GET /api/v1/healthkit_upload/{uploadId}/status`: how far processing an upload has come.
    /// - Parameter uploadId: The upload's `HealthKitUploadResponse.uploadId`.
    public static func healthKitUploadStatus(uploadId: String) -> Request<HealthKitUploadStatus> {
        Request(
            path: "/healthkit_upload/" + RequestTarget.pathSegment(uploadId) + "/status",
            name: "clarity.healthkit.status"
        )
    }

    /// `POST /api/v1/health-data`: stores a batch of metrics. Answers 201 with its processing status.
    ///
    /// The request is a queueable write (`RequestOptions.isQueueable`) carrying an
    /// idempotency key, sent as `Idempotency-Key`: if it is queued offline and delivered
    /// later, or retried, the server stores the batch once.
    /// - Parameters:
    ///   - upload: The metrics.
    ///   - idempotencyKey: The key that makes a repeat harmless; a new UUID by default. Reuse
    ///     the same key when sending the same batch again.
    public static func submitHealthData(_ upload: HealthDataUpload, idempotencyKey: String = UUID().uuidString) -> Request<HealthDataProcessing> {
        Request(
            method: .post,
            path: "/health-data",
            body: .json(upload),
            options: compressed(personal(RequestOptions(isQueueable: true, idempotencyKey: idempotencyKey, invalidates: ["/health-data"]))),
            name: "clarity.healthdata.submit"
        )
    }

    /// `GET /api/v1/health-data?page&limit&type`: one page of the user's metrics, oldest first,
    /// in the `{"data": [...], "meta": {...}}` shape.
    /// - Parameters:
    ///   - page: The page's number, from 1.
    ///   - limit: Metrics per page, 1…100.
    ///   - type: Only metrics of this type; all by default.
    public static func healthData(page: Int = 1, limit: Int = 50, type: HealthMetricType? = nil) -> Request<PaginatedResponse<HealthMetric>> {
        var query = [URLQueryItem(name: "page", value: "\(page)"), URLQueryItem(name: "limit", value: "\(limit)")]
        if let type { query.append(URLQueryItem(name: "type", value: type.rawValue)) }
        return Request(path: "/health-data", query: query, name: "clarity.healthdata.list")
    }

    /// `GET /api/v1/health-data/processing/{processingId}`: how processing a batch stands.
    /// - Parameter processingId: The batch's `HealthDataProcessing.processingId`.
    public static func healthDataProcessing(processingId: String) -> Request<HealthDataProcessing> {
        Request(
            path: "/health-data/processing/" + RequestTarget.pathSegment(processingId),
            name: "clarity.healthdata.processing"
        )
    }

    /// Options for an upload whose body is worth compressing: sent gzipped when the client has a compressor.
    static func compressed(_ options: RequestOptions) -> RequestOptions {
        var options = options
        options.compressesRequestBody = true
        return options
    }

    /// Options for a request whose body is health data: never logged (`RequestOptions.bodyIsPersonalData`).
    static func personal(_ options: RequestOptions = RequestOptions()) -> RequestOptions {
        var options = options
        options.bodyIsPersonalData = true
        return options
    }
}
