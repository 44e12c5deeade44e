@testable import Courier
import HTTPTypes
import Foundation
import Testing

@Suite("HTTP bodies")
struct HTTPBodyTests {
    private func chunks(_ parts: [String]) -> AsyncStream<Data> {
        AsyncStream { continuation in
            for part in parts { continuation.yield(Data(part.utf8)) }
            continuation.finish()
        }
    }

    @Test func copiesOfASingleUseBodyShareItsOneRead() async throws {
        let body = HTTPBody(chunks(["a", "b"]), length: .known(2))
        let copy = body
        #expect(try await body.collect(upTo: 10) == Data("ab".utf8))
        await #expect(throws: HTTPBody.AlreadyConsumedError.self) { _ = try await copy.collect(upTo: 10) }
    }

    @Test func aBodyGivenItsFileKeepsItsBytesLengthAndReplayability() async throws {
        let url = URL(fileURLWithPath: "/tmp/courier-body-test")
        var buffered = HTTPBody("abc")
        buffered.fileSource = HTTPBody.FileSource(url: url)
        #expect(buffered.fileSource?.url == url)
        #expect(buffered.bufferedData == Data("abc".utf8))
        #expect(buffered.length == .known(3))
        #expect(buffered.isReplayable)
        #expect(try await buffered.collect(upTo: 10) == Data("abc".utf8))
        #expect(try await buffered.collect(upTo: 10) == Data("abc".utf8))

        var streamed = HTTPBody(chunks(["x", "y"]), length: .known(2))
        streamed.fileSource = HTTPBody.FileSource(url: url)
        #expect(streamed.fileSource?.url == url)
        #expect(streamed.length == .known(2))
        #expect(!streamed.isReplayable)
        #expect(try await streamed.collect(upTo: 10) == Data("xy".utf8))
        #expect(HTTPBody("abc").fileSource == nil)
    }

    @Test func aResponseWithItsBodyFitsInFourWordsSoEveryStageGetsItBackInRegisters() {
        // Each stage of the chain returns `(HTTPResponse, HTTPBody?)`; past four words it
        // comes back through memory, and every async frame on the way keeps copies of it.
        #expect(MemoryLayout<(HTTPResponse, HTTPBody?)>.size <= 4 * MemoryLayout<Int>.size)
    }

    @Test func bufferedBodyCanBeReadTwice() async throws {
        let body = HTTPBody("hello")
        #expect(body.isReplayable)
        #expect(try await body.collect(upTo: 100) == Data("hello".utf8))
        #expect(try await body.collect(upTo: 100) == Data("hello".utf8))
    }

    @Test func aBufferedBodyIsAtHandWithoutAReadAndAStreamedOneIsNot() throws {
        #expect(try HTTPBody("hello").collectedIfBuffered(upTo: 5) == Data("hello".utf8))
        #expect(throws: HTTPBody.TooManyBytesError.self) { try HTTPBody("hello").collectedIfBuffered(upTo: 4) }
        #expect(try HTTPBody(chunks(["a"]), length: .known(1)).collectedIfBuffered(upTo: 10) == nil)
    }

    @Test func singleUseBodyThrowsOnTheSecondRead() async throws {
        let body = HTTPBody(chunks(["a", "b"]), length: .known(2))
        #expect(!body.isReplayable)
        #expect(try await body.collect(upTo: 10) == Data("ab".utf8))
        await #expect(throws: HTTPBody.AlreadyConsumedError.self) { _ = try await body.collect(upTo: 10) }
    }

    @Test func collectStopsPastTheLimitWithATypedError() async throws {
        let streamed = HTTPBody(chunks(["12345", "67890"]))
        await #expect(throws: HTTPBody.TooManyBytesError.self) { _ = try await streamed.collect(upTo: 8) }
        let declared = HTTPBody(chunks(["x"]), length: .known(1_000))
        let error = await #expect(throws: HTTPBody.TooManyBytesError.self) { _ = try await declared.collect(upTo: 10) }
        #expect(error?.maxBytes == 10)
    }

    @Test func collectJoinsChunksAndReturnsASingleChunkStartingAtZero() async throws {
        let joined = HTTPBody(chunks(["ab", "cd", "e"]), length: .known(5))
        #expect(try await joined.collect(upTo: 5) == Data("abcde".utf8))

        let parent = Data("xxhello".utf8)
        let slice = parent[2...]
        let single = HTTPBody(AsyncStream { continuation in
            continuation.yield(slice)
            continuation.finish()
        }, length: .unknown)
        let collected = try await single.collect(upTo: 10)
        #expect(collected == Data("hello".utf8))
        #expect(collected.startIndex == 0)
        #expect(collected[0] == UInt8(ascii: "h"))
    }

    @Test func aSingleChunkPastTheLimitIsRefused() async throws {
        let body = HTTPBody(chunks(["123456789"]))
        await #expect(throws: HTTPBody.TooManyBytesError.self) { _ = try await body.collect(upTo: 8) }
    }

    @Test func anEmptyStreamCollectsToEmptyData() async throws {
        #expect(try await HTTPBody(chunks([]), length: .unknown).collect(upTo: 10).isEmpty)
    }

    @Test func prefixReadsOnlyUpToTheLimit() async {
        let body = HTTPBody(chunks(["abc", "def", "ghi"]))
        #expect(await body.prefix(upTo: 4) == Data("abcd".utf8))
    }
}
