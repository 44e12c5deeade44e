import ClarityOpenAPI
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
        /// The ids of the metrics the batch stored.
        let metricIds: Set<String>
    }

    private let processingTime: TimeInterval
    private var uploads: [String: StoredUpload] = [:]
    private var batches: [String: StoredBatch] = [:]
    /// Each user's metrics, in the order they arrived.
    private var metricsByUser: [String: [Components.Schemas.HealthMetric]] = [:]
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
    func acceptMetrics(_ metrics: [Components.Schemas.HealthMetric], ownerId: String, at now: Date) -> HealthDataProcessing {
        let id = "hd_\(nextBatch)"
        nextBatch += 1
        var ids: Set<String> = []
        for var metric in metrics {
            metric.metricId = Self.metricId(nextMetric)
            ids.insert(Self.metricId(nextMetric))
            metric.createdAt = metric.createdAt ?? Self.whole(now)
            nextMetric += 1
            metricsByUser[ownerId, default: []].append(metric)
        }
        let processing = HealthDataProcessing(
            processingId: id, status: .processing, totalMetrics: metrics.count, processedMetrics: 0, createdAt: Self.whole(now)
        )
        batches[id] = StoredBatch(ownerId: ownerId, processing: processing, readyAt: now.addingTimeInterval(processingTime), metricIds: ids)
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

    /// Deletes one of the user's batches and the metrics it stored.
    /// - Returns: How many metrics went; `nil` when the user has no batch with that id.
    func deleteBatch(id: String, ownerId: String) -> Int? {
        guard let batch = batches[id], batch.ownerId == ownerId else { return nil }
        batches[id] = nil
        let before = metricsByUser[ownerId]?.count ?? 0
        metricsByUser[ownerId]?.removeAll { $0.metricId.map(batch.metricIds.contains) ?? false }
        return before - (metricsByUser[ownerId]?.count ?? 0)
    }

    /// How many metrics the server holds, for its health report.
    var metricCount: Int { metricsByUser.values.reduce(0) { $0 + $1.count } }

    /// One page of a user's metrics, oldest first, from `offset`.
    struct MetricPage: Sendable {
        let items: [Components.Schemas.HealthMetric]
        let totalCount: Int
        /// Where the next page starts, or `nil` on the last page.
        let nextOffset: Int?
    }

    /// The user's metrics of a type (all when `nil`) created between two moments (when given), `limit` from `offset`.
    func metrics(ownerId: String, type: String?, from start: Date? = nil, through end: Date? = nil, offset: Int, limit: Int) -> MetricPage {
        let all = (metricsByUser[ownerId] ?? []).filter { metric in
            (type == nil || metric.metricType == type)
                && (start.map { start in (metric.createdAt ?? .distantPast) >= start } ?? true)
                && (end.map { end in (metric.createdAt ?? .distantFuture) <= end } ?? true)
        }
        let items = all.dropFirst(min(offset, all.count)).prefix(limit)
        let end = min(offset, all.count) + items.count
        return MetricPage(items: Array(items), totalCount: all.count, nextOffset: end < all.count ? end : nil)
    }

    /// A metric id in the document's `uuid` format, numbered: `00000000-0000-4000-8000-000000000001`.
    private static func metricId(_ number: Int) -> String {
        let digits = String(number)
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: max(0, 12 - digits.count)) + digits
    }

    private static func share(from start: Date, to end: Date, at now: Date) -> Double {
        let span = end.timeIntervalSince(start)
        guard span > 0 else { return 1 }
        return min(1, max(0, now.timeIntervalSince(start) / span))
    }

    private static func whole(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }
}
