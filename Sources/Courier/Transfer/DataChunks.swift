import Foundation

/// Bytes in memory as a sequence of slices, so that sending them reports progress slice by
/// slice instead of all at once. Slices share the bytes' storage; nothing is copied here.
struct DataChunks: AsyncSequence, Sendable {
    typealias Element = Data

    /// The slice size used unless told otherwise.
    static let defaultChunkSize = 64 << 10

    let data: Data
    let chunkSize: Int

    /// A replayable body of the bytes, sent in slices of `chunkSize`.
    static func body(of data: Data, chunkSize: Int = defaultChunkSize) -> HTTPBody {
        HTTPBody(DataChunks(data: data, chunkSize: Swift.max(1, chunkSize)), length: .known(Int64(data.count)), iterationBehavior: .multiple)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let chunks: DataChunks
        var offset: Int

        mutating func next() async throws -> Data? {
            let data = chunks.data
            guard offset < data.endIndex else { return nil }
            let end = Swift.min(data.endIndex, offset + chunks.chunkSize)
            defer { offset = end }
            return data[offset..<end]
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(chunks: self, offset: data.startIndex)
    }
}
