package import Courier
import Foundation
package import NIOCore

/// A streamed request body as AsyncHTTPClient reads it, paced so that it cannot run ahead of
/// the socket.
///
/// AsyncHTTPClient reads a streamed body in a task of its own, off the event loop, and hands
/// each chunk to the connection's loop to be written. It stops reading when the connection
/// says it cannot take more, but the connection learns that only when the loop has run the
/// writes handed to it: until then, every chunk read counts as written. With the reader and
/// the loop on one core, the reader can queue a large share of a file on the loop before the
/// loop runs at all (a 256 MB upload from raw AsyncHTTPClient grew its process by up to 100 MB).
///
/// So after every ``window`` bytes, the next read first waits until each of the client's
/// event loops has run what it was handed before: the writes so far have then reached the
/// connection, which has paused the reading if it is full. At most about a window of chunks
/// waits on a loop, whatever the body's size.
package struct PacedRequestBody: AsyncSequence, Sendable {
    package typealias Element = ByteBuffer

    /// How many bytes are read between two waits for the loops.
    package static let window = 1 << 20

    let body: HTTPBody
    /// Returns once the loops have run what they were handed (``LoopExecutors/settle()``).
    let settle: @Sendable () async -> Void

    /// Paces a body's reading.
    /// - Parameters:
    ///   - body: The request body.
    ///   - settle: Waits for the loops, between windows.
    package init(body: HTTPBody, settle: @escaping @Sendable () async -> Void) {
        self.body = body
        self.settle = settle
    }

    /// Reads the body's chunks, waiting for the loops after each window.
    package struct AsyncIterator: AsyncIteratorProtocol {
        var base: HTTPBody.Iterator
        let settle: @Sendable () async -> Void
        /// Bytes read since the loops last caught up.
        var unsettled = 0

        /// The next chunk as a buffer, once the loops have caught up if a window was read.
        package mutating func next() async throws -> ByteBuffer? {
            if unsettled >= PacedRequestBody.window {
                await settle()
                unsettled = 0
            }
            guard let chunk = try await base.next() else { return nil }
            unsettled += chunk.count
            return ByteBuffer(bytes: chunk)
        }
    }

    /// Makes an iterator over the body.
    package func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: body.makeAsyncIterator(), settle: settle)
    }
}
