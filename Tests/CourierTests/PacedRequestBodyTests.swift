import Courier
@testable import CourierAsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Testing

/// AsyncHTTPClient reads a streamed request body off the event loop and counts a chunk as
/// written once it has handed it to the loop. `PacedRequestBody` keeps that reader from running
/// ahead of the loop: after each window of bytes it waits until the loops have run what they
/// were handed.
@Suite("A streamed request body is read no faster than the event loops write it", .timeLimit(.minutes(1)))
struct PacedRequestBodyTests {
    private enum Step: Equatable { case read(Int), settle }

    @Test func theReaderWaitsForTheLoopsAfterEachWindowAndNowhereElse() async throws {
        let chunkSize = PacedRequestBody.window / 4
        let steps = Mutex<[Step]>([])
        let chunks = (0..<10).map { Data(repeating: UInt8($0), count: chunkSize) }
        let stream = AsyncStream<Data> { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish()
        }
        let source = HTTPBody(stream.map { chunk -> Data in
            steps.withLock { $0.append(.read(Int(chunk[0]))) }
            return chunk
        }, length: .known(Int64(chunks.count * chunkSize)), iterationBehavior: .single)
        let paced = PacedRequestBody(body: source) { steps.withLock { $0.append(.settle) } }

        var received: [ByteBuffer] = []
        for try await buffer in paced { received.append(buffer) }

        #expect(received.map { Data($0.readableBytesView) } == chunks)
        #expect(steps.withLock { $0 } == [
            .read(0), .read(1), .read(2), .read(3), .settle,
            .read(4), .read(5), .read(6), .read(7), .settle,
            .read(8), .read(9),
        ])
    }

    @Test func aBodyWithinOneWindowNeverWaits() async throws {
        let settles = Mutex(0)
        let paced = PacedRequestBody(body: HTTPBody(Data(count: PacedRequestBody.window - 1))) { settles.withLock { $0 += 1 } }
        var total = 0
        for try await buffer in paced { total += buffer.readableBytes }
        #expect(total == PacedRequestBody.window - 1)
        #expect(settles.withLock { $0 } == 0)
    }

    @Test func settlingReturnsOnlyOnceEveryLoopHasRunWhatItWasHandedBefore() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let loops = LoopExecutors(group: group)
        let ran = Mutex(0)
        for loop in group.makeIterator() {
            for _ in 0..<500 { loop.execute { ran.withLock { $0 += 1 } } }
        }
        await loops.settle()
        let count = ran.withLock { $0 }
        try await group.shutdownGracefully()
        #expect(count == 1_000)
    }
}
