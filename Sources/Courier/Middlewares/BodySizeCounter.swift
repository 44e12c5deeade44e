import Foundation

/// A streamed body that counts its bytes and reports the total when it ends: how the logging
/// and metrics middleware learn a streamed response's size without holding it.
struct BodySizeCounter: AsyncSequence, Sendable {
    typealias Element = Data
    let base: HTTPBody
    let finished: @Sendable (Int) -> Void

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: HTTPBody.Iterator
        let finished: @Sendable (Int) -> Void
        var count = 0

        mutating func next() async throws -> Data? {
            guard let chunk = try await base.next() else {
                finished(count)
                return nil
            }
            count += chunk.count
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), finished: finished)
    }
}
