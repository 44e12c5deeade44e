public import ClarityOpenAPI
public import Courier
public import Foundation
import OpenAPIRuntime

extension ClarityClient {
    // MARK: - HealthKit uploads (/api/v1/healthkit/)

    /// Uploads HealthKit samples (seed 002's `uploadHealthKit`): `POST /api/v1/healthkit/`,
    /// answered 202 with a receipt. A queueable write with an idempotency key: offline, it
    /// waits in the client's offline queue (`CourierError.Code.queued`) and is delivered once.
    /// - Parameters:
    ///   - upload: The samples, with the user's id.
    ///   - idempotencyKey: The write's key; a new UUID by default.
    public func uploadHealthKit(_ upload: HealthKitUploadRequest, idempotencyKey: String = UUID().uuidString) async throws -> HealthKitUploadResponse {
        try await ClarityOperationOptions.$idempotencyKey.withValue(idempotencyKey) {
            try await ClarityCall.run("healthkit upload") { try await api.uploadHealthkitDataApiV1HealthkitPost(body: .json(upload)).accepted.body.json }
        }
    }

    /// Uploads a HealthKit document written to disk, streamed from the file with progress:
    /// `POST /api/v1/healthkit/` with the file as its body.
    ///
    /// ```swift
    /// let upload = try clarity.uploadHealthKit(fileAt: exportURL)
    /// for await step in upload.progress { print(step) }
    /// let receipt = try await upload.value()
    /// ```
    /// - Parameter url: A JSON `HealthKitUploadRequest` on disk.
    /// - Throws: `CourierError.Code.fileSystem` when the file cannot be read.
    public func uploadHealthKit(fileAt url: URL) throws -> Transfer<HealthKitUploadResponse> {
        let body = try RequestBody.file(url, contentType: "application/json")
        var request = Request<HealthKitUploadResponse>(method: .post, path: "/api/v1/healthkit/", body: body, name: Operations.UploadHealthkitDataApiV1HealthkitPost.id)
        request.options.bodyIsPersonalData = true
        return client.upload(request).map(\.value)
    }

    /// How processing an upload stands (seed 002's `getHealthKitUploadStatus`):
    /// `GET /api/v1/healthkit/status/{upload_id}`, a free-form object read leniently.
    public func healthKitUploadStatus(uploadId: String) async throws -> ClarityUploadStatus {
        let object = try await ClarityCall.run("healthkit status") {
            try await api.getUploadStatusApiV1HealthkitStatusUploadIdGet(path: .init(uploadId: uploadId)).ok.body.json
        }
        return try ClarityFreeform.decode(ClarityUploadStatus.self, from: object, operation: "healthkit status")
    }

    // MARK: - Health data (/api/v1/health-data/)

    /// Stores a batch of metrics (seed 002's `uploadHealthData`): `POST /api/v1/health-data/`,
    /// answered 201. A queueable write with an idempotency key, so a repeat with the same key
    /// stores it once; offline, it waits in the client's offline queue.
    /// - Parameters:
    ///   - upload: The metrics, with the user's id.
    ///   - idempotencyKey: The write's key; a new UUID by default.
    /// - Returns: The batch's processing status.
    /// - Throws: `CourierError`; `CourierError.Code.queued` when it waits in the offline queue.
    public func submitHealthData(_ upload: HealthDataUpload, idempotencyKey: String = UUID().uuidString) async throws -> HealthDataResponse {
        try await ClarityOperationOptions.$idempotencyKey.withValue(idempotencyKey) {
            try await ClarityCall.run("health-data upload") { try await api.uploadHealthDataApiV1HealthDataPost(body: .json(upload)).created.body.json }
        }
    }

    /// The user's metrics as pages fetched while iterating, following the service's cursors
    /// (seed 002's `getHealthData(page:limit:)`): `GET /api/v1/health-data/?limit&cursor…`.
    ///
    /// ```swift
    /// for try await page in clarity.healthData(pageSize: 100, type: .heartRate) { chart.add(page.items) }
    /// ```
    /// - Parameters:
    ///   - pageSize: Metrics per page.
    ///   - type: Only metrics of this type (`data_type`); all by default.
    public func healthData(pageSize: Int = 50, type: HealthMetricKind? = nil) -> Pages<ClarityHealthDataPage> {
        let client = self
        var first = Request<ClarityHealthDataPage>(path: "/api/v1/health-data/", query: [URLQueryItem(name: "limit", value: "\(pageSize)")])
        if let type { first.query.append(URLQueryItem(name: "data_type", value: type.rawValue)) }
        return Pages(
            first: first,
            send: { request in
                let query = Dictionary(request.query.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
                return try await client.healthData(limit: pageSize, cursor: query["cursor"], type: type)
            },
            next: { page, previous in
                guard page.pagination.hasNext, let cursor = page.pagination.nextCursor else { return nil }
                var next = previous
                next.query.removeAll { $0.name == "cursor" }
                next.query.append(URLQueryItem(name: "cursor", value: cursor))
                return next
            }
        )
    }

    /// One page of the user's metrics: `GET /api/v1/health-data/?limit&cursor`. To walk every
    /// page, use ``healthData(pageSize:type:)``.
    /// - Parameters:
    ///   - limit: Metrics per page.
    ///   - cursor: The page's cursor, from the previous page's `pagination.nextCursor`; the
    ///     first page without one.
    ///   - type: Only metrics of this type; all by default.
    public func healthData(limit: Int, cursor: String? = nil, type: HealthMetricKind? = nil) async throws -> ClarityHealthDataPage {
        let page = try await ClarityCall.run("health-data list") {
            try await api.listHealthDataApiV1HealthDataGet(query: .init(limit: limit, cursor: cursor, dataType: type?.rawValue)).ok.body.json
        }
        return try ClarityHealthDataPage(page)
    }

    /// How processing a batch of metrics stands (seed 002's `getProcessingStatus`):
    /// `GET /api/v1/health-data/processing/{processing_id}`, a free-form object read leniently.
    public func healthDataProcessing(processingId: String) async throws -> ClarityProcessingStatus {
        let object = try await ClarityCall.run("health-data processing") {
            try await api.getProcessingStatusApiV1HealthDataProcessingProcessingIdGet(path: .init(processingId: processingId)).ok.body.json
        }
        return try ClarityFreeform.decode(ClarityProcessingStatus.self, from: object, operation: "health-data processing")
    }
}

/// One page of the user's health data: the records, and the service's cursors and links.
public struct ClarityHealthDataPage: Sendable, Hashable {
    /// The records of the page. The document leaves them free-form (`dict[str, Any]`), so each
    /// is read leniently as a health metric (``ClarityHealthRecord``).
    public var items: [ClarityHealthRecord]
    /// The cursors: `pagination`.
    public var pagination: Components.Schemas.PaginationInfo
    /// The links: `links`.
    public var links: Components.Schemas.PaginationLinks

    /// Reads the generated page.
    init(_ page: Components.Schemas.PaginatedResponseDictStrAny) throws {
        let decoder = ClarityDateTranscoder.jsonDecoder()
        items = try page.data.enumerated().map { index, element in
            do {
                return try decoder.decode(ClarityHealthRecord.self, from: JSONEncoder().encode(element))
            } catch {
                var failure = CourierError(code: .decodingFailed, message: "health-data list: data[\(index)] is not an object: \(error)", underlying: error)
                failure.codingPath = "data[\(index)]"
                throw failure
            }
        }
        pagination = page.pagination
        links = page.links
    }
}

/// One record of the user's health data, read leniently as the document's `HealthMetric`:
/// each field is read when the service sends it with the document's type, and nil otherwise;
/// the whole object stays in ``raw``.
///
/// Keys read: `metric_id`, `metric_type`, `created_at`, `device_id`, `biometric_data`,
/// `activity_data`, `sleep_data`, `mental_health_data`.
public struct ClarityHealthRecord: Sendable, Hashable, Decodable {
    /// `metric_id`.
    public var metricId: String?
    /// `metric_type`, as a ``HealthMetricKind`` (``HealthMetricKind/unknown(_:)`` for a new type).
    public var kind: HealthMetricKind?
    /// `created_at`.
    public var createdAt: Date?
    /// `device_id`.
    public var deviceId: String?
    /// `biometric_data`.
    public var biometricData: Components.Schemas.BiometricData?
    /// `activity_data`.
    public var activityData: Components.Schemas.ActivityData?
    /// `sleep_data`.
    public var sleepData: Components.Schemas.SleepData?
    /// `mental_health_data`.
    public var mentalHealthData: Components.Schemas.MentalHealthIndicator?
    /// The record as it came.
    public var raw: JSONValue

    enum CodingKeys: String, CodingKey {
        case metricId = "metric_id", metricType = "metric_type", createdAt = "created_at", deviceId = "device_id"
        case biometricData = "biometric_data", activityData = "activity_data", sleepData = "sleep_data", mentalHealthData = "mental_health_data"
    }

    /// Reads a record; only a value that is not a JSON object fails.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        metricId = try? container.decodeIfPresent(String.self, forKey: .metricId)
        kind = (try? container.decodeIfPresent(String.self, forKey: .metricType)).flatMap { $0 }.map(HealthMetricKind.init(rawValue:))
        createdAt = try? container.decodeIfPresent(Date.self, forKey: .createdAt)
        deviceId = try? container.decodeIfPresent(String.self, forKey: .deviceId)
        biometricData = try? container.decodeIfPresent(Components.Schemas.BiometricData.self, forKey: .biometricData)
        activityData = try? container.decodeIfPresent(Components.Schemas.ActivityData.self, forKey: .activityData)
        sleepData = try? container.decodeIfPresent(Components.Schemas.SleepData.self, forKey: .sleepData)
        mentalHealthData = try? container.decodeIfPresent(Components.Schemas.MentalHealthIndicator.self, forKey: .mentalHealthData)
        raw = try JSONValue(from: decoder)
    }
}
