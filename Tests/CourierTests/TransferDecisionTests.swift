@testable import Courier
import Foundation
import HTTPTypes
import Testing

@Suite("Transfer decisions: Content-Range, what a download does with an answer, progress")
struct TransferDecisionTests {
    // MARK: - Content-Range

    @Test func aContentRangeGivesItsBytesAndTheWholeLength() {
        let middle = ContentRange("bytes 100-199/1000")
        #expect(middle?.range == 100...199)
        #expect(middle?.completeLength == 1_000)
        let unknownLength = ContentRange("bytes 0-0/*")
        #expect(unknownLength?.range == 0...0)
        #expect(unknownLength != nil && unknownLength?.completeLength == nil)
        let lengthOnly = ContentRange("Bytes */1000")
        #expect(lengthOnly != nil && lengthOnly?.range == nil)
        #expect(lengthOnly?.completeLength == 1_000)
    }

    @Test(arguments: ["bytes 200-100/1000", "bytes 0-1000/1000", "items 0-9/10", "bytes */*", "bytes 0-9", "bytes -5-9/10", "bytes a-b/10"])
    func aMalformedContentRangeIsRejected(_ value: String) {
        #expect(ContentRange(value) == nil)
    }

    // MARK: - What a download does with an answer

    @Test func aPartialAnswerStartingWhereTheFileEndsIsAppended() {
        let headers: HTTPFields = [.contentRange: "bytes 4096-9999/10000", .eTag: "\"v1\""]
        let step = DownloadStep.decide(status: 206, headers: headers, offset: 4_096, validator: "\"v1\"")
        #expect(step == .append(totalBytes: 10_000))
    }

    @Test func aPartialAnswerForAnotherOffsetOrVersionStartsOver() {
        let elsewhere = DownloadStep.decide(status: 206, headers: [.contentRange: "bytes 0-9999/10000"], offset: 4_096, validator: "\"v1\"")
        let otherVersion = DownloadStep.decide(
            status: 206, headers: [.contentRange: "bytes 4096-9999/10000", .eTag: "\"v2\""], offset: 4_096, validator: "\"v1\""
        )
        let noRange = DownloadStep.decide(status: 206, headers: [:], offset: 4_096, validator: "\"v1\"")
        for step in [elsewhere, otherVersion, noRange] {
            guard case .startOver = step else {
                Issue.record("expected startOver, got \(step)")
                continue
            }
        }
    }

    @Test func aWholeAnswerIsWrittenFromTheStartWithItsLength() {
        let step = DownloadStep.decide(status: 200, headers: [.contentLength: "10000"], offset: 4_096, validator: "\"v1\"")
        #expect(step == .writeFromStart(totalBytes: 10_000))
        #expect(DownloadStep.decide(status: 200, headers: [:], offset: 0, validator: nil) == .writeFromStart(totalBytes: nil))
    }

    @Test func aRangeNotSatisfiableAtTheEndMeansThePartialFileIsComplete() {
        let complete = DownloadStep.decide(status: 416, headers: [.contentRange: "bytes */10000"], offset: 10_000, validator: "\"v1\"")
        #expect(complete == .alreadyComplete(totalBytes: 10_000))
        let shorter = DownloadStep.decide(status: 416, headers: [.contentRange: "bytes */5000"], offset: 10_000, validator: "\"v1\"")
        guard case .startOver = shorter else {
            Issue.record("a 416 for a shorter resource must start over, got \(shorter)")
            return
        }
    }

    @Test func theValidatorIsTheStrongETagElseLastModifiedNeverAWeakETag() {
        let modified = "Thu, 01 Jan 2026 00:00:00 GMT"
        #expect(DownloadStep.validator(in: [.eTag: "\"abc\"", .lastModified: modified]) == "\"abc\"")
        #expect(DownloadStep.validator(in: [.eTag: "W/\"abc\"", .lastModified: modified]) == modified)
        #expect(DownloadStep.validator(in: [.eTag: "W/\"abc\""]) == nil)
        #expect(DownloadStep.validator(in: [:]) == nil)
    }

    // MARK: - File errors

    @Test func fileErrorsSayWhatWentWrongAndCarryThePOSIXError() {
        let full = TransferFile.fileError("write to", path: "/data/x", code: ENOSPC)
        #expect(full.code == .fileSystem)
        #expect(full.message == "could not write to /data/x: the disk is full (errno \(ENOSPC))")
        #expect((full.underlying as? POSIXError)?.code == .ENOSPC)
        #expect(TransferFile.fileError("create", path: "/x", code: EACCES).message.contains("permission denied"))
        #expect(full.userFacing.title == "Can't save or read the file")
    }

    // MARK: - Progress

    @Test func progressIsMonotonicAcrossAnAttemptThatStartsAgainAndEndsAtTheTotal() async {
        let reporter = ProgressReporter(total: 1_000_000)
        for bytes in stride(from: 0, through: 600_000, by: 50_000) { reporter.advance(to: Int64(bytes)) }
        // A retried attempt counts from zero again.
        for bytes in stride(from: 0, through: 1_000_000, by: 50_000) { reporter.advance(to: Int64(bytes)) }
        reporter.complete(bytes: 1_000_000)
        var seen: [TransferProgress] = []
        for await step in reporter.stream { seen.append(step) }
        #expect(seen.count > 2)
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.completedBytes < $1.completedBytes })
        #expect(seen.last == TransferProgress(completedBytes: 1_000_000, totalBytes: 1_000_000))
        #expect(seen.last?.fractionCompleted == 1)
        #expect(seen.last?.isComplete == true)
    }

    @Test func aFailedTransferEndsItsProgressWithoutAFinalValue() async {
        let reporter = ProgressReporter(total: 1_000_000)
        reporter.advance(to: 400_000)
        reporter.fail()
        reporter.advance(to: 1_000_000)
        var seen: [TransferProgress] = []
        for await step in reporter.stream { seen.append(step) }
        #expect(seen == [TransferProgress(completedBytes: 400_000, totalBytes: 1_000_000)])
    }

    @Test func aNewTotalStartsTheCountAfresh() {
        let reporter = ProgressReporter()
        reporter.advance(to: 500)
        reporter.setTotal(1_000)
        #expect(reporter.current == TransferProgress(completedBytes: 500, totalBytes: 1_000))
        reporter.setTotal(300)
        #expect(reporter.current == TransferProgress(completedBytes: 0, totalBytes: 300))
    }

    @Test func fractionAndDescriptionReadWell() {
        #expect(TransferProgress(completedBytes: 250, totalBytes: 1_000).fractionCompleted == 0.25)
        #expect(TransferProgress(completedBytes: 0, totalBytes: 0).fractionCompleted == 1)
        #expect(TransferProgress(completedBytes: 5, totalBytes: nil).fractionCompleted == nil)
        #expect(TransferProgress(completedBytes: 250, totalBytes: 1_000).description == "250/1000 bytes (25.0%)")
    }
}
