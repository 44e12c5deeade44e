import CompressNIO
import Foundation
import Hummingbird
import NIOPosix
import Synchronization

/// `GET /debug/encoded`: bodies in a content coding, well formed or broken on purpose, for
/// testing and benchmarking a client's decoding.
///
/// Query items:
/// - `count`: the decoded size in bytes (clamped to ``maximumDecodedBytes``);
/// - `shape`: `json` (an array of records, as an API sends; the default) or `zeros` (which
///   compresses a thousandfold: a decompression bomb);
/// - `coding`: `auto` (gzip when the request accepts it, else none; the default), `gzip`,
///   `x-gzip`, `deflate` or `identity`, sent whatever the request accepts;
/// - `fault`: `corrupt` (labelled gzip, sent plain), `truncated` (the stream's last bytes
///   left out, with a `Content-Length` that matches what is sent), `raw-deflate` (labelled
///   `deflate`, sent without the zlib wrapper), `stacked` (`gzip, gzip`, encoded twice),
///   `unknown` (labelled `br`, sent plain), `members` (two gzip members in a row);
/// - `chunked=1`: no `Content-Length`, the body in 16 KiB chunks;
/// - `maxAge`: a `Cache-Control: max-age` in seconds, with an `ETag` (and 304s for it).
///
/// Every answer varies on `Accept-Encoding`, and says so unless `vary=0`.
struct DebugEncodedRoutes: Sendable {
    /// The largest decoded body.
    static let maximumDecodedBytes = 1 << 30
    /// Well-formed JSON bodies already encoded, by size and coding: a benchmark asks for the
    /// same one again and again, and should measure its client, not this server's compressor.
    private let memo = EncodedBodyMemo()

    func register<Context: RequestContext>(on debug: RouterGroup<Context>) {
        debug.get("encoded") { request, _ in
            // Making a large body (compressing up to a GiB) is seconds of CPU. It runs on NIO's
            // thread pool: on the concurrency pool's few threads it would hold up every other
            // request meanwhile (and, in a test process, every other test).
            let count = try QueryItems(rawQuery: request.uri.query).integer("count", default: 1 << 20, in: 0...Int.max)
            guard count > Self.inlineBytes else { return try encoded(request) }
            return try await NIOThreadPool.singleton.runIfActive { try encoded(request) }
        }
    }

    /// The largest body made on the request's own task.
    static let inlineBytes = 1 << 20

    private func encoded(_ request: Request) throws -> Response {
        let query = QueryItems(rawQuery: request.uri.query)
        let count = min(try query.integer("count", default: 1 << 20, in: 0...Int.max), Self.maximumDecodedBytes)
        let shape = query.first("shape") ?? "json"
        let fault = query.first("fault")
        let accepted = (request.headers[.acceptEncoding] ?? "").lowercased()
        var coding = query.first("coding") ?? "auto"
        if coding == "auto" { coding = accepted.contains("gzip") ? "gzip" : "identity" }
        if fault == "raw-deflate" { coding = "deflate" }

        var headers: HTTPFields = [.contentType: shape == "json" ? "application/json" : "application/octet-stream"]
        // `vary=0`: a server that forgets to say its answer depends on Accept-Encoding.
        if query.first("vary") != "0" { headers[.vary] = "Accept-Encoding" }
        if let maxAge = query.first("maxAge") {
            let etag = "\"\(shape)-\(count)-\(coding)\""
            headers[.cacheControl] = "max-age=\(Int(maxAge) ?? 0)"
            headers[.eTag] = etag
            if request.headers[.ifNoneMatch] == etag {
                headers[.contentEncoding] = coding == "identity" ? nil : coding
                return Response(status: .notModified, headers: headers)
            }
        }
        if shape == "zeros", fault == nil, coding == "gzip" {
            // A bomb is compressed a MiB of zeros at a time: the server never holds it inflated.
            headers[.contentEncoding] = "gzip"
            let body = try memo.body(shape: shape, count: count, coding: coding) { try Self.gzippedZeros(count) }
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
        }
        let plain = shape == "zeros" ? ByteBuffer(repeating: 0, count: min(count, 64 << 20)) : memo.records(bytes: count)
        var body: ByteBuffer
        switch fault {
        case "corrupt":
            headers[.contentEncoding] = "gzip"
            body = plain
        case "unknown":
            headers[.contentEncoding] = "br"
            body = plain
        case "truncated":
            headers[.contentEncoding] = "gzip"
            body = try Self.compress(plain, .gzip)
            body = body.getSlice(at: body.readerIndex, length: max(0, body.readableBytes - 12)) ?? body
        case "raw-deflate":
            headers[.contentEncoding] = "deflate"
            body = try Self.compress(plain, .deflate)
        case "stacked":
            headers[.contentEncoding] = "gzip, gzip"
            body = try Self.compress(try Self.compress(plain, .gzip), .gzip)
        case "members":
            headers[.contentEncoding] = "gzip"
            let half = plain.readableBytes / 2
            body = try Self.compress(plain.getSlice(at: plain.readerIndex, length: half)!, .gzip)
            var second = try Self.compress(plain.getSlice(at: plain.readerIndex + half, length: plain.readableBytes - half)!, .gzip)
            body.writeBuffer(&second)
        default:
            body = try memo.body(shape: shape, count: count, coding: coding) {
                switch coding {
                case "gzip", "x-gzip": try Self.compress(plain, .gzip)
                case "deflate": try Self.compress(plain, .zlib)
                default: plain
                }
            }
            if coding != "identity" { headers[.contentEncoding] = coding }
        }
        guard query.first("chunked") == "1" else {
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
        }
        let whole = body
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            var rest = whole
            while rest.readableBytes > 0, let chunk = rest.readSlice(length: min(16 << 10, rest.readableBytes)) {
                try await writer.write(chunk)
            }
            try await writer.finish(nil)
        })
    }

    /// `count` zero bytes, gzip-compressed (about a thousandth of `count`).
    private static func gzippedZeros(_ count: Int) throws -> ByteBuffer {
        let compressor = try ZlibCompressor(algorithm: .gzip)
        let zeros = ByteBuffer(repeating: 0, count: 1 << 20)
        var output = ByteBuffer()
        var scratch = ByteBufferAllocator().buffer(capacity: 64 << 10)
        var left = count
        while true {
            let finishing = left <= zeros.readableBytes
            var input = zeros.getSlice(at: 0, length: min(left, zeros.readableBytes))!
            left -= input.readableBytes
            while true {
                scratch.clear()
                var full = false
                do {
                    try compressor.deflate(from: &input, to: &scratch, flush: finishing ? .finish : .no)
                } catch let error as CompressNIOError where error == .bufferOverflow {
                    full = true
                }
                output.writeBuffer(&scratch)
                if !full, input.readableBytes == 0 { break }
            }
            if finishing { return output }
        }
    }

    private static func compress(_ plain: ByteBuffer, _ algorithm: ZlibAlgorithm) throws -> ByteBuffer {
        var input = plain
        return try input.compress(with: algorithm == .gzip ? .gzip() : algorithm == .zlib ? .zlib() : .deflate())
    }

    /// A JSON array of records, exactly `bytes` long (padded with spaces before the closing bracket).
    static func records(bytes: Int) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(bytes)
        guard bytes >= 2 else { return ByteBuffer(repeating: UInt8(ascii: " "), count: bytes) }
        buffer.writeString("[")
        var index = 0
        var generator = SplitMix64(seed: 7)
        while true {
            let score = generator.next() % 10_000
            let record = "{\"id\":\(index),\"title\":\"Radar \(index)\",\"state\":\"\(["open", "closed", "duplicate"][index % 3])\",\"score\":\(score),\"updatedAt\":\"2026-11-\(10 + index % 18)T08:\(10 + index % 50):00Z\"}"
            let separator = index == 0 ? 0 : 1
            guard buffer.readableBytes + separator + record.utf8.count + 1 <= bytes else { break }
            if separator == 1 { buffer.writeString(",") }
            buffer.writeString(record)
            index += 1
        }
        buffer.writeRepeatingByte(UInt8(ascii: " "), count: bytes - 1 - buffer.readableBytes)
        buffer.writeString("]")
        return buffer
    }
}

/// The bodies `/debug/encoded` made, kept for the next request for the same one: up to
/// ``capacity`` of them, each at most ``largest`` bytes as sent (a bomb of a GiB of zeros is
/// about a MiB gzipped); a `final class` whose dictionaries sit in a `Mutex`, which makes it
/// `Sendable`.
final class EncodedBodyMemo: Sendable {
    static let capacity = 16
    static let largest = 16 << 20
    private let bodies = Mutex<[String: ByteBuffer]>([:])

    /// The JSON records of `bytes` bytes.
    func records(bytes: Int) -> ByteBuffer {
        body(key: "records-\(bytes)") { DebugEncodedRoutes.records(bytes: bytes) }
    }

    /// The body of this shape, size and coding, made by `make` the first time.
    func body(shape: String, count: Int, coding: String, make: () throws -> ByteBuffer) rethrows -> ByteBuffer {
        try body(key: "\(shape)-\(count)-\(coding)", make: make)
    }

    private func body(key: String, make: () throws -> ByteBuffer) rethrows -> ByteBuffer {
        if let kept = bodies.withLock({ $0[key] }) { return kept }
        let made = try make()
        guard made.readableBytes <= Self.largest else { return made }
        bodies.withLock { bodies in
            if bodies.count >= Self.capacity { bodies.removeAll() }
            bodies[key] = made
        }
        return made
    }
}
