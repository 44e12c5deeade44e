import Foundation
import HTTPTypes

/// One download to a file, from its first request to the move into place, resuming with
/// `Range` / `If-Range` when the connection breaks.
///
/// Each attempt streams the body straight to the partial file (``PartialDownload``), chunk by
/// chunk, so memory stays flat whatever the size. What an answer means for the partial file
/// is ``DownloadStep``'s decision. An attempt that fails for a connectivity reason (the
/// connection lost, a timeout, no connection) is followed by another from the bytes on disk,
/// up to ``DownloadOptions/resumeAttempts`` in a row without progress.
struct FileDownload: Sendable {
    let client: APIClient
    let request: Request<Data>
    let partial: PartialDownload
    /// The digest of the absolute URL, recorded with the partial file.
    let source: String
    let options: DownloadOptions

    /// What the attempts so far have done, for ``DownloadResult``.
    private struct Tally {
        var resumes = 0
        var restarts = 0
    }

    /// Thrown by an attempt whose answer cannot be appended to the partial file.
    private struct StartOver: Error {
        let reason: String
    }

    /// Downloads, reporting the bytes on disk to `reporter`.
    func run(reporter: ProgressReporter) async throws -> DownloadResult {
        var resume = options.resumesPartialFile ? try partial.resumePoint(source: source) : nil
        if resume == nil { partial.discard() }
        var tally = Tally()
        var failuresInARow = 0
        while true {
            let bytesBefore = try TransferFile.size(of: partial.dataURL) ?? 0
            do {
                try Task.checkCancellation()
                return try await attempt(from: resume, reporter: reporter, tally: &tally)
            } catch let startOver as StartOver {
                partial.discard()
                if resume != nil { tally.restarts += 1 }
                resume = nil
                failuresInARow += 1
                guard failuresInARow <= max(1, options.resumeAttempts) else {
                    throw withContext(CourierError(code: .invalidResponse, message: "the download could not be resumed: \(startOver.reason)"))
                }
            } catch let error as CourierError where Self.isResumable(error) {
                let bytesAfter = try TransferFile.size(of: partial.dataURL) ?? 0
                failuresInARow = bytesAfter > bytesBefore ? 1 : failuresInARow + 1
                guard failuresInARow <= options.resumeAttempts else { throw abandon(error) }
                resume = try partial.resumePoint(source: source)
                if resume == nil {
                    // Bytes without a validator cannot be resumed safely: they are thrown away.
                    if bytesAfter > 0 { tally.restarts += 1 }
                    partial.discard()
                }
                do {
                    try await client.configuration.clock.sleep(for: options.resumeDelay)
                } catch {
                    throw abandon(error)
                }
            } catch {
                throw abandon(error)
            }
        }
    }

    /// One request and its body.
    private func attempt(from resume: PartialDownload.ResumePoint?, reporter: ProgressReporter, tally: inout Tally) async throws -> DownloadResult {
        var request = self.request
        let offset = resume?.offset ?? 0
        if let maxBytes = options.maxBytes {
            // The transport stops a body past what is left of the cap as it arrives.
            request.options.maxResponseBytes = Int(clamping: max(0, maxBytes - offset))
        }
        if !request.headers.contains(.acceptEncoding) {
            // A file is asked for as it is: its Content-Length gives progress a total, and its
            // validator and byte offsets are those a resumed range needs. A server that
            // compresses it anyway is decoded as for any call.
            request.headers[.acceptEncoding] = "identity"
        }
        if let resume {
            request.headers[.range] = "bytes=\(resume.offset)-"
            request.headers[.ifRange] = resume.validator
            tally.resumes += 1
        }
        let response: HTTPResponse
        let body: HTTPBody
        do {
            (response, body) = try await client.stream(request)
        } catch let error as CourierError where error.status?.code == 416 && resume != nil {
            (response, body) = (HTTPResponse(status: .rangeNotSatisfiable, headerFields: error.headers ?? [:]), HTTPBody(Data()))
        }

        let file: TransferFile
        let total: Int64?
        var written: Int64
        switch DownloadStep.decide(status: response.status.code, headers: response.headerFields, offset: offset, validator: resume?.validator) {
        case .alreadyComplete(let length):
            try partial.finish()
            reporter.complete(bytes: length)
            return DownloadResult(fileURL: partial.destination, byteCount: length, response: response, resumes: tally.resumes, restarts: tally.restarts)
        case .startOver(let reason):
            throw StartOver(reason: reason)
        case .writeFromStart(let length):
            total = length
            if offset > 0 { tally.restarts += 1 }
            // Remove the old bytes and their record before recording the new validator: bytes of
            // the old version must never sit under the new version's record. A new file rather
            // than a truncated one: ext4 flushes a truncated file's new blocks early, which
            // costs a third of the rate.
            partial.discard()
            file = try TransferFile.openForAppending(partial.dataURL)
            let validator = DownloadStep.validator(in: response.headerFields)
            try partial.saveRecord(validator.map { PartialDownload.Record(source: source, validator: $0, totalBytes: total) }, synchronize: options.synchronizesToDisk)
            reporter.setTotal(total)
            written = 0
        case .append(let length):
            total = length
            file = try TransferFile.openForAppending(partial.dataURL)
            guard try TransferFile.size(of: partial.dataURL) == offset else {
                throw StartOver(reason: "the partial file changed while the download was away")
            }
            reporter.setTotal(total)
            written = offset
        }

        if let maxBytes = options.maxBytes, let total, total > maxBytes {
            throw tooLarge(maxBytes, detail: "the server announced \(total) bytes")
        }
        reporter.advance(to: written)
        for try await chunk in body {
            if let maxBytes = options.maxBytes, written + Int64(chunk.count) > maxBytes {
                throw tooLarge(maxBytes, detail: "the body grew past it")
            }
            try file.write(chunk)
            written += Int64(chunk.count)
            reporter.advance(to: written)
        }
        if let total, written != total {
            throw CourierError(code: .connectionLost, message: "the body ended after \(written) of \(total) bytes")
        }
        if options.synchronizesToDisk { try file.synchronize() }
        try partial.finish()
        reporter.complete(bytes: written)
        return DownloadResult(fileURL: partial.destination, byteCount: written, response: response, resumes: tally.resumes, restarts: tally.restarts)
    }

    /// The failure for a file past ``DownloadOptions/maxBytes`` (its partial file goes, see
    /// `abandon(_:)`).
    private func tooLarge(_ maxBytes: Int64, detail: String) -> CourierError {
        CourierError(code: .responseTooLarge, message: "the download is larger than the limit of \(maxBytes) bytes (\(detail))")
    }

    /// Whether a failure is worth resuming after: the connection, not the request or the disk.
    static func isResumable(_ error: CourierError) -> Bool {
        [.connectionLost, .timedOut, .cannotConnect, .offline].contains(error.code)
    }

    /// The error to end the download with, after removing the partial file unless it is kept.
    private func abandon(_ error: any Error) -> any Error {
        // A file past its cap is never resumed: resuming could only grow it further.
        if !options.keepsPartialFile || (error as? CourierError)?.code == .responseTooLarge { partial.discard() }
        guard let error = error as? CourierError else { return error }
        return withContext(error)
    }

    /// Adds the request's method and URL to an error raised outside the client (while writing the body).
    private func withContext(_ error: CourierError) -> CourierError {
        var error = error
        if error.method == nil { error.method = request.method }
        if error.url == nil { error.url = Redaction.redactedURL(request.path) }
        return error
    }
}
