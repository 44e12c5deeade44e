@testable import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@Suite("Ranges served from a complete stored response")
struct ByteRangeTests {
    @Test func aSingleByteRangeSelectsTheBytesItNames() {
        #expect(ByteRange.selection("bytes=0-1", length: 11) == 0..<2)
        #expect(ByteRange.selection("bytes=5-", length: 11) == 5..<11)
        #expect(ByteRange.selection("bytes=-3", length: 11) == 8..<11)
        #expect(ByteRange.selection("bytes=-30", length: 11) == 0..<11, "a suffix longer than the body is the whole body")
        #expect(ByteRange.selection("bytes=4-400", length: 11) == 4..<11, "the last position is clipped to the body")
        #expect(ByteRange.selection(" Bytes = 2-3 ", length: 11) == nil, "no space inside the unit")
        #expect(ByteRange.selection("BYTES=2-3", length: 11) == 2..<4, "the unit is case-insensitive")
    }

    @Test func anythingElseIsLeftToTheWholeRepresentation() {
        #expect(ByteRange.selection("bytes=0-1,4-5", length: 11) == nil, "several ranges")
        #expect(ByteRange.selection("items=0-1", length: 11) == nil)
        #expect(ByteRange.selection("bytes=11-", length: 11) == nil, "unsatisfiable")
        #expect(ByteRange.selection("bytes=3-2", length: 11) == nil)
        #expect(ByteRange.selection("bytes=-0", length: 11) == nil)
        #expect(ByteRange.selection("bytes=a-2", length: 11) == nil)
        #expect(ByteRange.selection("bytes=0-1", length: 0) == nil)
    }

    @Test func ifRangeHoldsOnlyForTheStrongETagOrTheExactDate() {
        let date = "Sun, 22 Nov 2026 10:00:00 GMT"
        #expect(ByteRange.ifRangeHolds("\"v1\"", etag: "\"v1\"", lastModified: nil))
        #expect(!ByteRange.ifRangeHolds("\"v2\"", etag: "\"v1\"", lastModified: nil))
        #expect(!ByteRange.ifRangeHolds("W/\"v1\"", etag: "W/\"v1\"", lastModified: nil), "weak validators never match")
        #expect(ByteRange.ifRangeHolds(date, etag: nil, lastModified: date))
        #expect(!ByteRange.ifRangeHolds("Sun, 22 Nov 2026 10:00:01 GMT", etag: nil, lastModified: date))
    }

    @Test func theCacheAnswersARangeOfAStoredBodyWithA206() async throws {
        let transport = MockTransport(always: MockResponse(
            status: .ok, headers: [.cacheControl: "max-age=600", .eTag: "\"v1\""], body: Data("0123456789".utf8)
        ))
        let clock = ManualClock()
        let client = APIClient(
            configuration: ClientConfiguration(baseURL: URL(string: "https://a.test")!, cache: HTTPCache(storage: MemoryCacheStorage(), clock: clock)),
            transport: transport
        )
        _ = try await client.send(Request<Data>(path: "/file"))
        let part = try await client.send(Request<Data>(path: "/file").header(.range, "bytes=2-4"))
        #expect(part.status == .partialContent)
        #expect(part.value == Data("234".utf8))
        #expect(part.headers[.contentRange] == "bytes 2-4/10")
        #expect(part.metrics.cacheStatus == .hit)
        let mismatched = try await client.send(Request<Data>(path: "/file").header(.range, "bytes=2-4").header(.ifRange, "\"v0\""))
        #expect(mismatched.status == .ok)
        #expect(mismatched.value == Data("0123456789".utf8))
        #expect(transport.requests.count == 1)
    }
}
