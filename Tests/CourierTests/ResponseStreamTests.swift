import Courier
@testable import CourierURLSession
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// How a URLSession response body's chunks reach its reader: driven by hand, with a data task
/// that is made but never resumed (nothing goes on the wire).
@Suite("URLSession response stream hand-over")
struct ResponseStreamTests {
    private static func withStream(limit: Int? = nil, _ body: (ResponseStream) async throws -> Void) async throws {
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: URL(string: "http://127.0.0.1:9/never")!)
        try await body(ResponseStream(task: task, limit: limit))
    }

    private static func chunk(_ byte: UInt8, count: Int) -> Data {
        Data(repeating: byte, count: count)
    }

    @Test func bufferedChunksAreHandedOverInOrderThenTheEnd() async throws {
        try await Self.withStream { stream async throws in
            #expect(stream.append(Self.chunk(1, count: 3)))
            #expect(stream.append(Self.chunk(2, count: 2)))
            stream.finish(nil)
            #expect(stream.append(Self.chunk(3, count: 1)))
            #expect(try await stream.next() == Self.chunk(1, count: 3))
            #expect(try await stream.next() == Self.chunk(2, count: 2))
            #expect(try await stream.next() == nil)
            #expect(try await stream.next() == nil)
        }
    }

    @Test func aReaderThatWaitsGetsTheNextChunkAsItComes() async throws {
        try await Self.withStream { stream async throws in
            async let piece = stream.next()
            // The reader may or may not have parked yet: either way it gets this chunk.
            #expect(stream.append(Self.chunk(9, count: 5)))
            #expect(try await piece == Self.chunk(9, count: 5))
        }
    }

    @Test func aFailureDropsWhatWaitedAndEndsTheBodyWithIt() async throws {
        try await Self.withStream { stream async throws in
            #expect(stream.append(Self.chunk(1, count: 3)))
            stream.finish(CourierError(code: .connectionLost, message: "gone"))
            let error = await #expect(throws: CourierError.self) { try await stream.next() }
            #expect(error?.code == .connectionLost)
        }
    }

    @Test func aBodyPastItsLimitFailsAndHoldsNothing() async throws {
        try await Self.withStream(limit: 4) { stream async throws in
            #expect(stream.append(Self.chunk(1, count: 3)))
            #expect(!stream.append(Self.chunk(2, count: 2)))
            let error = await #expect(throws: CourierError.self) { try await stream.next() }
            #expect(error?.code == .responseTooLarge)
        }
    }
}
