import Foundation

/// The bytes of a file as a sequence of chunks, read as they are asked for: a file body is
/// never held in memory whole.
///
/// Each iteration opens the file afresh and reads it from the start, so a body made from it
/// can be sent again (by retry, redirect or authentication replay). The file must keep the
/// size it had when the body was made: a file that grew or shrank since ends the iteration
/// with ``CourierError/Code/fileSystem`` rather than sending a body that does not match its
/// `Content-Length`.
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = Data

    /// The chunk size used unless told otherwise.
    static let defaultChunkSize = 256 << 10

    let url: URL
    let length: Int64
    let chunkSize: Int

    /// A replayable body of the file's bytes, with its size as the length.
    /// - Throws: ``CourierError/Code/fileSystem`` when the file is missing or unreadable.
    static func body(of url: URL, chunkSize: Int = defaultChunkSize) throws -> HTTPBody {
        // Opening checks now that the file can be read, rather than when the request is sent.
        _ = try TransferFile.openForReading(url)
        guard let length = try TransferFile.size(of: url) else {
            throw TransferFile.fileError("read", path: url.path, code: ENOENT)
        }
        let chunks = FileChunks(url: url, length: length, chunkSize: Swift.max(1, chunkSize))
        var body = HTTPBody(chunks, length: .known(length), iterationBehavior: .multiple)
        body.fileSource = HTTPBody.FileSource(url: url)
        return body
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let chunks: FileChunks
        var file: TransferFile?
        var read: Int64 = 0
        var done = false

        mutating func next() async throws -> Data? {
            guard !done else { return nil }
            if file == nil { file = try TransferFile.openForReading(chunks.url) }
            let wanted = Int(Swift.min(Int64(chunks.chunkSize), Swift.max(1, chunks.length - read)))
            guard let chunk = try file?.read(upTo: wanted) else {
                done = true
                file = nil
                guard read == chunks.length else { throw changed(actual: read) }
                return nil
            }
            read += Int64(chunk.count)
            guard read <= chunks.length else { throw changed(actual: read) }
            return chunk
        }

        private func changed(actual: Int64) -> CourierError {
            CourierError(
                code: .fileSystem,
                message: "\(chunks.url.path) changed while it was read: \(chunks.length) bytes expected, \(actual) found"
            )
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(chunks: self)
    }
}
