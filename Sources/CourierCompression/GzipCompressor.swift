import CompressNIO
public import Courier
import Foundation
import NIOCore

/// Compresses request bodies with gzip: set it as
/// `ClientConfiguration.requestBodyCompressor` and mark the requests whose bodies
/// should go compressed with `RequestOptions.compressesRequestBody`.
///
/// ```swift
/// var configuration = ClientConfiguration(baseURL: url)
/// configuration.requestBodyCompressor = GzipCompressor()
/// var upload = Request<Receipt>(method: .post, path: "/health-data", body: .json(samples))
/// upload.options.compressesRequestBody = true
/// ```
///
/// A body in memory is compressed at once, into a body in memory of known length. A streamed
/// body (a file) is compressed as the transport reads it, a chunk at a time, and can be sent
/// again when the original can; on URLSession, which uploads only files and whole bodies, the
/// compressed stream is gathered in memory first.
public struct GzipCompressor: RequestBodyCompressor {
    /// `gzip`.
    public var contentCoding: String { "gzip" }
    /// The zlib compression level, 1 (fastest) to 9 (smallest); 6 by default, zlib's own.
    public var level: Int32

    /// Makes a compressor.
    /// - Parameter level: The compression level, 1 to 9 (6 by default).
    public init(level: Int32 = 6) {
        self.level = min(9, max(1, level))
    }

    /// The body, gzip-compressed.
    public func compress(_ body: HTTPBody) throws -> HTTPBody {
        if let data = body.bufferedData {
            var stream = try GzipStream(level: level)
            return HTTPBody(try stream.compress(data, finishing: true))
        }
        return HTTPBody(GzipChunks(base: body, level: level), length: .unknown, iterationBehavior: body.iterationBehavior)
    }
}

/// One gzip stream: chunks in, compressed chunks out.
struct GzipStream {
    private let compressor: ZlibCompressor
    private var output: ByteBuffer

    init(level: Int32) throws {
        compressor = try ZlibCompressor(algorithm: .gzip, configuration: ZlibConfiguration(windowSize: 15, compressionLevel: level))
        output = ByteBufferAllocator().buffer(capacity: 64 << 10)
    }

    /// Compresses `data`; with `finishing`, ends the stream after it.
    mutating func compress(_ data: Data, finishing: Bool) throws -> Data {
        // zlib makes no progress on no input unless it is finishing.
        if data.isEmpty, !finishing { return Data() }
        var input = ByteBuffer(bytes: data)
        var result = Data()
        while true {
            output.clear()
            var full = false
            do {
                try compressor.deflate(from: &input, to: &output, flush: finishing ? .finish : .no)
            } catch let error as CompressNIOError where error == .bufferOverflow {
                full = true
            }
            output.withUnsafeReadableBytes { result.append(contentsOf: $0) }
            // Without finishing, zlib stops once it has taken all the input (and room was left);
            // finishing, once it has written the end of the stream.
            if !full, input.readableBytes == 0 { return result }
        }
    }
}

/// A streamed body's chunks, gzip-compressed as they are read.
struct GzipChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let base: HTTPBody
    let level: Int32

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: HTTPBody.Iterator
        var stream: GzipStream?
        let level: Int32
        var done = false

        mutating func next() async throws -> Data? {
            if done { return nil }
            if stream == nil { stream = try GzipStream(level: level) }
            while !done {
                if let chunk = try await base.next() {
                    let compressed = try stream!.compress(chunk, finishing: false)
                    if !compressed.isEmpty { return compressed }
                } else {
                    done = true
                    let tail = try stream!.compress(Data(), finishing: true)
                    stream = nil
                    return tail
                }
            }
            return nil
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), level: level)
    }
}
