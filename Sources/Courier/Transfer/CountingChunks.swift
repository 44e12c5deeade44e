import Foundation

/// A body's chunks, passed on unchanged while the bytes handed to the transport are counted
/// into a ``ProgressReporter``. Each iteration (each attempt) counts from zero; the reporter
/// keeps the progress monotonic.
struct CountingChunks: AsyncSequence, Sendable {
    typealias Element = Data

    let base: HTTPBody
    let reporter: ProgressReporter

    /// `body` with its bytes counted as they are sent. Bytes in memory are cut into slices
    /// first, so that progress moves as they go out rather than all at once.
    static func body(counting body: HTTPBody, into reporter: ProgressReporter) -> HTTPBody {
        let base = body.bufferedData.map { DataChunks.body(of: $0) } ?? body
        var counted = HTTPBody(CountingChunks(base: base, reporter: reporter), length: base.length, iterationBehavior: base.iterationBehavior)
        if let file = base.fileSource {
            // An engine that sends the file itself reports the bytes it sent instead.
            counted.fileSource = HTTPBody.FileSource(url: file.url) { reporter.advance(to: $0) }
        }
        return counted
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: HTTPBody.Iterator
        let reporter: ProgressReporter
        var sent: Int64 = 0

        mutating func next() async throws -> Data? {
            guard let chunk = try await base.next() else { return nil }
            sent += Int64(chunk.count)
            reporter.advance(to: sent)
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), reporter: reporter)
    }
}
