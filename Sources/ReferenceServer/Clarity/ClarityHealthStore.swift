import ClarityCore
import Foundation

/// CLARITY's HealthKit uploads and health data, per user, in memory.
///
/// Processing is synthetic and deterministic: an upload or a batch of metrics is processing
/// for the configured time after it arrives (``ReferenceServerConfiguration/analysisProcessingTime``,
/// zero by default, which completes it at once), its progress growing linearly, then it is
/// completed. Ids count up from 1 (`hk_1`, `hd_1`, `met_1`).
actor ClarityHealthStore {
    private struct StoredUpload {
        let ownerId: String
        let samples: Int
        let queuedAt: Date
        let readyAt: Date
    }

    private struct StoredBatch {
        let ownerId: String
        let processing: HealthDataProcessing
        let readyAt: Date
    }

    private let processingTime: TimeInterval
    private var uploads: [String: StoredUpload] = [:]
    private var batches: [String: StoredBatch] = [:]
    /// Each user's metrics, in the order they arrived.
    private var metricsByUser: [String: [HealthMetric]] = [:]
    private var nextUpload = 1
    private var nextBatch = 1
    private var nextMetric = 1

    init(processingTime: Duration) {
        self.processingTime = processingTime.timeInterval
    }

    /// Keeps an upload of `samples` samples and returns its id.
    func acceptUpload(samples: Int, ownerId: String, at now: Date) -> String {
        let id = "hk_\(nextUpload)"
        nextUpload += 1
        uploads[id] = StoredUpload(ownerId: ownerId, samples: samples, queuedAt: now, readyAt: now.addingTimeInterval(processingTime))
        return id
    }

    /// One of the user's uploads as it stands.
    func uploadStatus(id: String, ownerId: String, at now: Date) -> HealthKitUploadStatus? {
        guard let upload = uploads[id], upload.ownerId == ownerId else { return nil }
        let share = Self.share(from: upload.queuedAt, to: upload.readyAt, at: now)
        let done = share >= 1
        return HealthKitUploadStatus(
            uploadId: id,
            status: done ? .completed : .processing,
            progress: share,
            samplesProcessed: Int((Double(upload.samples) * share).rounded(.down)),
            message: done ? "processed \(upload.samples) samples" : "processing \(upload.samples) samples",
            lastUpdated: Self.whole(done ? upload.readyAt : now)
        )
    }

    /// Stores a batch of metrics for the user and returns its processing status.
    func acceptMetrics(_ metrics: [HealthMetric], ownerId: String, at now: Date) -> HealthDataProcessing {
        let id = "hd_\(nextBatch)"
        nextBatch += 1
        for var metric in metrics {
            metric.metricId = "met_\(nextMetric)"
            nextMetric += 1
            metricsByUser[ownerId, default: []].append(metric)
        }
        let processing = HealthDataProcessing(
            processingId: id, status: .processing, totalMetrics: metrics.count, processedMetrics: 0, createdAt: Self.whole(now)
        )
        batches[id] = StoredBatch(ownerId: ownerId, processing: processing, readyAt: now.addingTimeInterval(processingTime))
        return batchStatus(id: id, ownerId: ownerId, at: now) ?? processing
    }

    /// One of the user's batches as it stands.
    func batchStatus(id: String, ownerId: String, at now: Date) -> HealthDataProcessing? {
        guard let batch = batches[id], batch.ownerId == ownerId else { return nil }
        var processing = batch.processing
        let share = Self.share(from: batch.readyAt.addingTimeInterval(-processingTime), to: batch.readyAt, at: now)
        processing.processedMetrics = Int((Double(processing.totalMetrics) * share).rounded(.down))
        if share >= 1 {
            processing.status = .completed
            processing.completedAt = Self.whole(batch.readyAt)
            processing.message = "processed \(processing.totalMetrics) metrics"
        }
        return processing
    }

    /// A page of metrics in the `{"data": [...], "meta": {...}}` shape clients read with
    /// Courier's `PaginatedResponse`.
    struct MetricPage: Encodable, Sendable {
        struct Meta: Encodable, Sendable {
            let currentPage: Int
            let totalPages: Int
            let totalCount: Int
            let hasNextPage: Bool
        }

        let data: [HealthMetric]
        let meta: Meta
    }

    /// A page of the user's metrics, oldest first, optionally of one type.
    func metrics(ownerId: String, type: HealthMetricType?, page: Int, limit: Int) -> MetricPage {
        let all = (metricsByUser[ownerId] ?? []).filter { type == nil || $0.type == type }
        let pages = max(1, (all.count + limit - 1) / limit)
        // `page` is the client's, up to Int.max: a product past Int's range skips everything.
        let (skipped, overflow) = (page - 1).multipliedReportingOverflow(by: limit)
        let items = all.dropFirst(overflow ? all.count : skipped).prefix(limit)
        return MetricPage(
            data: Array(items),
            meta: .init(currentPage: page, totalPages: pages, totalCount: all.count, hasNextPage: page < pages)
        )
    }

    /// How far along `start…end` the moment `now` is, from 0 to 1.
    private static func share(from start: Date, to end: Date, at now: Date) -> Double {
        let span = end.timeIntervalSince(start)
        guard span > 0 else { return 1 }
        return min(1, max(0, now.timeIntervalSince(start) / span))
    }

    private static func whole(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }
}
