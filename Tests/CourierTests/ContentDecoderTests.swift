@testable import Courier
import CourierCompression
import Foundation
import HTTPTypes
import NIOCore
import Testing

@Suite("Decoding content codings, without I/O")
struct ContentDecoderTests {
    private static let plain: Data = {
        var text = ""
        for index in 0..<4_000 { text += "{\"id\":\(index),\"title\":\"Record \(index)\",\"state\":\"open\"}," }
        return Data(text.utf8)
    }()

    private static func gzip(_ data: Data) throws -> Data {
        try #require(GzipCompressor().compress(HTTPBody(data)).bufferedData)
    }

    private static func decode(_ encoded: Data, chunk: Int, limits: DecodingLimits = .init(maxDecodedBytes: nil, maxRatio: 100)) throws -> Data {
        let decoder = try ContentDecoder(coding: .gzip, limits: limits)
        var output = Data()
        var offset = 0
        while offset < encoded.count {
            var input = ByteBuffer(bytes: encoded[offset..<min(encoded.count, offset + chunk)])
            while let decoded = try decoder.decode(&input) { output.append(decoded) }
            offset += chunk
        }
        try decoder.finish()
        return output
    }

    @Test(arguments: [1, 7, 512, 1 << 20])
    func gzipRoundTripsWhateverTheChunkSize(chunk: Int) throws {
        let encoded = try Self.gzip(Self.plain)
        #expect(encoded.count * 5 < Self.plain.count)
        #expect(try Self.decode(encoded, chunk: chunk) == Self.plain)
    }

    @Test func aStreamCutAnywhereIsReportedAsCutShort() throws {
        let encoded = try Self.gzip(Data(Self.plain.prefix(3_000)))
        for cut in stride(from: 1, to: encoded.count, by: 3) {
            #expect(throws: CourierError.self, "cut at \(cut) of \(encoded.count)") {
                _ = try Self.decode(encoded.prefix(cut), chunk: 64)
            }
        }
        let error = #expect(throws: CourierError.self) { _ = try Self.decode(encoded.prefix(encoded.count - 1), chunk: 64) }
        #expect(error?.code == .contentDecodingFailed)
    }

    @Test func membersInARowDecodeAsOneBodyAndGarbageAfterTheEndFails() throws {
        let first = Data(Self.plain.prefix(5_000))
        let second = Data(Self.plain.suffix(7_000))
        let both = try Self.gzip(first) + Self.gzip(second)
        #expect(try Self.decode(both, chunk: 100) == first + second)
        let error = #expect(throws: CourierError.self) { _ = try Self.decode(try Self.gzip(first) + Data("trailing".utf8), chunk: 100) }
        #expect(error?.code == .contentDecodingFailed)
    }

    @Test func thePublicInitializerTakesTheHeaderValueAndRefusesACodingItCannotDecode() throws {
        let decoder = try ContentDecoder(contentEncoding: "X-Gzip", maxDecodedBytes: nil, maxRatio: 100)
        var input = ByteBuffer(bytes: try Self.gzip(Self.plain))
        var output = Data()
        while let decoded = try decoder.decode(&input) { output.append(decoded) }
        try decoder.finish()
        #expect(output == Self.plain)
        #expect(throws: CourierError.self) { _ = try ContentDecoder(contentEncoding: "br", maxDecodedBytes: nil, maxRatio: 100) }
    }

    @Test func anEmptyBodyIsEmptyAndPlainBytesAreNotGzip() throws {
        #expect(try Self.decode(Data(), chunk: 10).isEmpty)
        let error = #expect(throws: CourierError.self) { _ = try Self.decode(Self.plain, chunk: 1_000) }
        #expect(error?.code == .contentDecodingFailed)
    }

    @Test func decodedBytesComeOutAWindowAtATimeAndStopAtTheLimits() throws {
        let zeros = try Self.gzip(Data(count: 8 << 20))
        let decoder = try ContentDecoder(coding: .gzip, limits: .init(maxDecodedBytes: nil, maxRatio: 100))
        var input = ByteBuffer(bytes: zeros)
        var largest = 0
        let error = #expect(throws: CourierError.self) {
            while let decoded = try decoder.decode(&input) { largest = max(largest, decoded.count) }
        }
        #expect(error?.code == .responseTooLarge)
        #expect(largest <= ContentDecoder.windowSize)
        #expect(decoder.decodedByteCount <= DecodingLimits.ratioAllowance + ContentDecoder.windowSize)

        let capped = #expect(throws: CourierError.self) {
            _ = try Self.decode(try Self.gzip(Self.plain), chunk: 4_096, limits: .init(maxDecodedBytes: 10_000, maxRatio: 100))
        }
        #expect(capped?.code == .responseTooLarge)
    }

    @Test func theLimitsArePureArithmetic() {
        let limits = DecodingLimits(maxDecodedBytes: 10 << 20, maxRatio: 100)
        #expect(limits.violation(decoded: 1 << 20, wire: 10) == nil, "the first MiB is always allowed")
        #expect(limits.violation(decoded: 2_100_000, wire: 21_000) == nil, "exactly 100 times")
        #expect(limits.violation(decoded: 2_100_001, wire: 21_000)?.code == .responseTooLarge)
        #expect(limits.violation(decoded: (10 << 20) + 1, wire: 1 << 20)?.code == .responseTooLarge, "the decoded cap")
        #expect(DecodingLimits(maxDecodedBytes: nil, maxRatio: 100).violation(decoded: Int.max, wire: Int.max) == nil, "no overflow")
    }

    @Test func theCodingHeaderIsReadStrictly() throws {
        #expect(try ContentCoding.of([.contentEncoding: "gzip"]) == .gzip)
        #expect(try ContentCoding.of([.contentEncoding: "X-GZIP"]) == .gzip)
        #expect(try ContentCoding.of([.contentEncoding: "deflate"]) == .deflate)
        #expect(try ContentCoding.of([.contentEncoding: "identity"]) == nil)
        #expect(try ContentCoding.of([:]) == nil)
        #expect(try ContentCoding.of([.contentEncoding: "br"]) == nil, "unknown: left alone")
        #expect(try ContentCoding.of([.contentEncoding: "gzip, x-custom"]) == nil, "one unknown coding leaves the body alone")
        #expect(throws: CourierError.self) { try ContentCoding.of([.contentEncoding: "gzip, gzip"]) }
        #expect(throws: CourierError.self) { try ContentCoding.of(HTTPFields([HTTPField(name: .contentEncoding, value: "gzip"), HTTPField(name: .contentEncoding, value: "deflate")])) }
    }
}
