import Foundation

/// The files of a download in progress, next to its destination: the bytes received so far
/// (`.NAME.courier-partial`) and a small record of what they are (`.NAME.courier-resume`),
/// both owner-only.
///
/// The resume point is the size of the partial file itself: bytes are appended in order, so
/// whatever reached the disk before a crash, a lost connection or a cancelled task is a prefix
/// of the resource. The record holds the validator to send as `If-Range` and a digest of the
/// URL (never the URL, which may carry a signed query), so that a later download to the same
/// destination resumes only the same resource. Finishing moves the partial file onto the
/// destination with one `rename`: the destination never holds part of a download.
struct PartialDownload: Sendable {
    /// What the record says about the partial file.
    struct Record: Codable, Sendable, Hashable {
        /// The record's format.
        var version = 1
        /// A digest of the URL the bytes come from.
        var source: String
        /// The `If-Range` value: a strong ETag or a Last-Modified date.
        var validator: String
        /// The resource's length, when the server said.
        var totalBytes: Int64?
    }

    /// Where an earlier attempt left off.
    struct ResumePoint: Sendable, Hashable {
        /// The bytes already in the partial file.
        var offset: Int64
        /// The `If-Range` value.
        var validator: String
        /// The resource's length, when known.
        var totalBytes: Int64?
    }

    /// The file the download ends up in.
    let destination: URL
    /// The bytes received so far.
    let dataURL: URL
    /// The record of what they are.
    let recordURL: URL

    init(destination: URL) {
        self.destination = destination
        let folder = destination.deletingLastPathComponent()
        let name = destination.lastPathComponent
        self.dataURL = folder.appendingPathComponent(".\(name).courier-partial")
        self.recordURL = folder.appendingPathComponent(".\(name).courier-resume")
    }

    /// Where to resume, when a partial file of the same resource with a validator is there.
    /// - Parameter source: The digest of the URL being downloaded.
    func resumePoint(source: String) throws -> ResumePoint? {
        guard let data = try? Data(contentsOf: recordURL),
              let record = try? JSONDecoder().decode(Record.self, from: data),
              record.version == 1, record.source == source,
              let offset = try TransferFile.size(of: dataURL), offset > 0
        else { return nil }
        if let total = record.totalBytes, offset > total { return nil }
        return ResumePoint(offset: offset, validator: record.validator, totalBytes: record.totalBytes)
    }

    /// Writes the record for bytes about to be received, or removes it when the answer has
    /// no validator (such bytes cannot be resumed safely). The record is written in place,
    /// owner-only; a torn record (a crash in the middle) does not decode, and the next call
    /// starts from zero.
    /// - Parameters:
    ///   - record: The record, or `nil` to remove it.
    ///   - synchronize: Whether to flush it to the disk.
    func saveRecord(_ record: Record?, synchronize: Bool) throws {
        TransferFile.remove(recordURL)
        guard let record else { return }
        let data: Data
        do {
            data = try JSONEncoder().encode(record)
        } catch {
            throw CourierError(code: .invalidRequest, message: "the resume record could not be encoded", underlying: error)
        }
        let file = try TransferFile.openForAppending(recordURL)
        try file.write(data)
        if synchronize { try file.synchronize() }
    }

    /// Moves the partial file onto the destination, then removes the record.
    func finish() throws {
        try TransferFile.move(dataURL, to: destination)
        TransferFile.remove(recordURL)
    }

    /// Removes the partial file and its record.
    func discard() {
        TransferFile.remove(dataURL)
        TransferFile.remove(recordURL)
    }

    /// A stable digest of an absolute URL, to recognise the same resource without storing its URL.
    static func source(of url: String) -> String {
        Digest.fnv1a(url)
    }
}
