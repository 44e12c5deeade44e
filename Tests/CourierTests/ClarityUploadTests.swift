import ClarityAPI
import ClarityCore
import Courier
import Foundation
import Testing

/// A night of heart-rate samples, one a minute, and a few sleep-stage samples.
private func aNightOfSamples(userId: String, minutes: Int = 480) -> HealthKitUploadRequest {
    let start = Date(timeIntervalSince1970: 1_795_000_000)
    var heartRate: [HealthKitSample] = []
    for minute in 0..<minutes {
        let begin = start.addingTimeInterval(Double(minute) * 60)
        heartRate.append(HealthKitSample(
            identifier: "hr-\(minute)", type: "HKQuantityTypeIdentifierHeartRate", value: Double(52 + minute % 17),
            unit: "count/min", startDate: begin, endDate: begin.addingTimeInterval(1), sourceName: "Apple Watch"
        ))
    }
    var sleep: [HealthKitSample] = []
    for stage in 0..<4 {
        let begin = start.addingTimeInterval(Double(stage) * 7_200)
        sleep.append(HealthKitSample(
            identifier: "sleep-\(stage)", type: "HKCategoryTypeIdentifierSleepAnalysis", value: Double(stage % 3 + 3),
            unit: nil, startDate: begin, endDate: begin.addingTimeInterval(7_200)
        ))
    }
    return HealthKitUploadRequest(userId: userId, quantitySamples: heartRate, categorySamples: sleep, syncToken: "sync-1")
}

/// `count` heart-rate metrics a minute apart.
private func metrics(_ count: Int, from start: Int = 0) -> [HealthMetric] {
    (start..<(start + count)).map { index -> HealthMetric in
        let isSteps = index % 5 == 0
        let timestamp = Date(timeIntervalSince1970: 1_795_000_000 + Double(index) * 60)
        return HealthMetric(
            type: isSteps ? .stepCount : .heartRate, value: Double(60 + index % 30), unit: isSteps ? "steps" : "bpm",
            timestamp: timestamp, source: "apple_watch"
        )
    }
}

@Suite("CLARITY HealthKit uploads and health data against the reference server", .serialized, .timeLimit(.minutes(2)))
struct ClarityUploadTests {
    @Test func aHealthKitExportOnDiskIsUploadedWithProgressAndQueued() async throws {
        try await withTemporaryFolder { folder in
            try await withClarity { clarity, user, _ in
                let file = folder.appendingPathComponent("healthkit-export.json")
                let document = aNightOfSamples(userId: user.id, minutes: 6_000)
                try JSONCoding.makeEncoder().encode(document).write(to: file)
                let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)

                let upload = try clarity.uploadHealthKit(fileAt: file)
                let log = collectProgress(of: upload)
                let receipt = try await upload.value()

                #expect(receipt.status == .queued)
                #expect(receipt.uploadId.hasPrefix("hk_"))
                #expect(receipt.samplesReceived == ["quantitySamples": 6_000, "categorySamples": 4])
                #expect(receipt.bytesReceived == size)
                let progress = await log.value
                #expect(progress.count > 1)
                #expect(isMonotonicAndComplete(progress, total: Int64(size)))

                let status = try await clarity.healthKitUploadStatus(uploadId: receipt.uploadId)
                #expect(status.status == .completed)
                #expect(status.samplesProcessed == 6_004)
                #expect(status.progress == 1)
            }
        }
    }

    @Test func aHealthKitUploadFromMemoryEndsAtItsEncodedSize() async throws {
        try await withClarity { clarity, user, _ in
            let upload = clarity.uploadHealthKit(aNightOfSamples(userId: user.id))
            let log = collectProgress(of: upload)
            let receipt = try await upload.value()
            let progress = await log.value
            #expect(receipt.samplesReceived["quantitySamples"] == 480)
            #expect(isMonotonicAndComplete(progress, total: Int64(receipt.bytesReceived)))
        }
    }

    @Test func anotherUsersSamplesAreRefusedAndAnotherUsersUploadIsNotFound() async throws {
        try await withClarity { clarity, _, _ in
            let refused = await clarity.uploadHealthKit(aNightOfSamples(userId: "someone-else", minutes: 10)).result()
            guard case .failure(let error) = refused else {
                Issue.record("uploading another user's samples must fail")
                return
            }
            #expect(error.code == .forbidden)
            let missing = await courierError { _ = try await clarity.healthKitUploadStatus(uploadId: "hk_999") }
            #expect(missing?.code == .notFound)
        }
    }

    @Test func healthDataWritesAreQueueableAndCarryAnIdempotencyKey() {
        let upload = HealthDataUpload(metrics: metrics(3), clientTimestamp: Date(timeIntervalSince1970: 1_795_000_000))
        let request = ClarityUploadEndpoints.submitHealthData(upload, idempotencyKey: "batch-7")
        #expect(request.method == .post)
        #expect(request.options.isQueueable)
        #expect(request.options.idempotencyKey == "batch-7")
        #expect(ClarityUploadEndpoints.submitHealthData(upload).options.idempotencyKey?.isEmpty == false, "a key by default")
    }

    @Test func aRepeatedHealthDataWriteWithTheSameKeyIsStoredOnce() async throws {
        try await withClarity { clarity, _, _ in
            let upload = HealthDataUpload(metrics: metrics(12), clientTimestamp: Date(timeIntervalSince1970: 1_795_000_000))
            let first = try await clarity.submitHealthData(upload, idempotencyKey: "night-21")
            let repeated = try await clarity.client.send(ClarityUploadEndpoints.submitHealthData(upload, idempotencyKey: "night-21"))

            #expect(first.totalMetrics == 12)
            #expect(repeated.value.processingId == first.processingId)
            #expect(repeated.headers[.init("Idempotent-Replayed")!] == "true")
            var stored = 0
            for try await page in clarity.healthData(pageSize: 100) { stored += page.data.count }
            #expect(stored == 12, "the repeat changed nothing")
        }
    }

    @Test func healthDataIsReadPageByPageInTheOrderItArrived() async throws {
        try await withClarity { clarity, _, _ in
            _ = try await clarity.submitHealthData(HealthDataUpload(metrics: metrics(70), clientTimestamp: Date()))
            _ = try await clarity.submitHealthData(HealthDataUpload(metrics: metrics(50, from: 70), clientTimestamp: Date()))
            var pages: [PaginatedResponse<HealthMetric>] = []
            for try await page in clarity.healthData(pageSize: 50) { pages.append(page) }

            #expect(pages.map(\.data.count) == [50, 50, 20])
            #expect(pages.map(\.meta.currentPage) == [1, 2, 3])
            #expect(pages.allSatisfy { $0.meta.totalCount == 120 && $0.meta.totalPages == 3 })
            let all = pages.flatMap(\.data)
            #expect(all.map(\.timestamp) == metrics(120).map(\.timestamp))
            #expect(Set(all.compactMap(\.metricId)).count == 120)

            var steps = 0
            for try await page in clarity.healthData(pageSize: 100, type: .stepCount) { steps += page.data.count }
            #expect(steps == 24)
        }
    }

    @Test func aBatchProcessingStatusIsFollowedByItsId() async throws {
        try await withClarity { clarity, _, _ in
            let accepted = try await clarity.submitHealthData(HealthDataUpload(metrics: metrics(5), clientTimestamp: Date()))
            let status = try await clarity.healthDataProcessing(processingId: accepted.processingId)
            #expect(status.processingId == accepted.processingId)
            #expect(status.status == .completed)
            #expect(status.processedMetrics == 5)
            let missing = await courierError { _ = try await clarity.healthDataProcessing(processingId: "hd_999") }
            #expect(missing?.code == .notFound)
        }
    }

    @Test func aBatchThatIsTooLargeOrEmptyIsRefused() async throws {
        try await withClarity { clarity, _, _ in
            let empty = await courierError { _ = try await clarity.submitHealthData(HealthDataUpload(metrics: [], clientTimestamp: Date())) }
            #expect(empty?.status?.code == 422)
        }
    }
}
