public import ClarityCore
public import Courier
public import Foundation

extension ClarityClient {
    /// Uploads a HealthKit document written to disk, streamed from the file, with progress.
    ///
    /// ```swift
    /// let upload = try clarity.uploadHealthKit(fileAt: exportURL)
    /// for await step in upload.progress { print(step) }
    /// let receipt = try await upload.value()      // uploadId, status: .queued
    /// ```
    /// - Parameter url: A JSON `HealthKitUploadRequest` on disk.
    /// - Returns: The upload; its value is the server's receipt.
    /// - Throws: `CourierError.Code.fileSystem` when the file cannot be read.
    public func uploadHealthKit(fileAt url: URL) throws -> Transfer<HealthKitUploadResponse> {
        let body = try RequestBody.file(url, contentType: "application/json")
        return client.upload(ClarityUploadEndpoints.healthKitUpload(body)).map(\.value)
    }

    /// Uploads a batch of HealthKit samples from memory, with progress.
    /// - Parameter upload: The samples.
    /// - Returns: The upload; its value is the server's receipt.
    public func uploadHealthKit(_ upload: HealthKitUploadRequest) -> Transfer<HealthKitUploadResponse> {
        client.upload(ClarityUploadEndpoints.healthKitUpload(.json(upload))).map(\.value)
    }

    /// How far processing an upload has come.
    /// - Parameter uploadId: The upload's id.
    public func healthKitUploadStatus(uploadId: String) async throws -> HealthKitUploadStatus {
        try await client.value(for: ClarityUploadEndpoints.healthKitUploadStatus(uploadId: uploadId))
    }

    /// Stores a batch of metrics; a queueable write with an idempotency key, so a repeat
    /// with the same key stores it once.
    /// - Parameters:
    ///   - upload: The metrics.
    ///   - idempotencyKey: The key; a new UUID by default. Pass the same key to send the same
    ///     batch again safely.
    /// - Returns: The batch's processing status.
    public func submitHealthData(_ upload: HealthDataUpload, idempotencyKey: String = UUID().uuidString) async throws -> HealthDataProcessing {
        try await client.value(for: ClarityUploadEndpoints.submitHealthData(upload, idempotencyKey: idempotencyKey))
    }

    /// The user's metrics, oldest first, as pages fetched while iterating.
    ///
    /// ```swift
    /// for try await page in clarity.healthData(pageSize: 100) { chart.add(page.data) }
    /// ```
    /// - Parameters:
    ///   - pageSize: Metrics per page, 1…100.
    ///   - type: Only metrics of this type; all by default.
    public func healthData(pageSize: Int = 50, type: HealthMetricType? = nil) -> Pages<PaginatedResponse<HealthMetric>> {
        Pages.pageMeta(client: client) { page in
            ClarityUploadEndpoints.healthData(page: page, limit: pageSize, type: type)
        }
    }

    /// One page of the user's metrics, oldest first (seed 002's `getHealthData(page:limit:)`).
    /// To walk every page, use ``healthData(pageSize:type:)``.
    /// - Parameters:
    ///   - page: The page's number, from 1.
    ///   - limit: Metrics per page, 1…100.
    ///   - type: Only metrics of this type; all by default.
    public func healthData(page: Int, limit: Int, type: HealthMetricType? = nil) async throws -> PaginatedResponse<HealthMetric> {
        try await client.value(for: ClarityUploadEndpoints.healthData(page: page, limit: limit, type: type))
    }

    /// How processing a batch of metrics stands.
    /// - Parameter processingId: The batch's id.
    public func healthDataProcessing(processingId: String) async throws -> HealthDataProcessing {
        try await client.value(for: ClarityUploadEndpoints.healthDataProcessing(processingId: processingId))
    }
}
