import CompressNIO
package import Courier
public import Foundation
import HTTPTypes
public import NIOCore

/// Decodes a compressed response body (`gzip` or `deflate`) as it arrives, a window at a
/// time, with the call's limits on what it may inflate to.
///
/// Feed it the encoded chunks with ``decode(_:)`` until it returns `nil`, then call
/// ``finish()``, which fails a stream that was cut short. Decoded bytes come out in windows
/// of at most ``windowSize`` bytes, so a body that would inflate to gigabytes is stopped by
/// its limits (`CourierError.Code.responseTooLarge`) having held one window.
/// Several gzip members in a row decode as one body, as RFC 1952 allows.
///
/// Not thread-safe: one decoder serves one body, read by one task.
public final class ContentDecoder {
    /// The most decoded bytes one call to ``decode(_:)`` returns.
    public static let windowSize = 64 << 10

    private let coding: String
    private let isGzip: Bool
    private let decompressor: ZlibDecompressor
    private let limits: DecodingLimits
    private var window: ByteBuffer
    /// An empty input for calls that only drain what zlib holds, or probe for the end.
    private var empty: ByteBuffer
    /// zlib filled the last window and may hold more output without more input.
    private var mayHoldOutput = false
    /// The current member (or zlib stream) reached its end.
    private var ended = false
    /// Encoded bytes handed to the decoder.
    public private(set) var encodedByteCount = 0
    /// Decoded bytes returned so far.
    public private(set) var decodedByteCount = 0

    /// Makes a decoder for a response whose `Content-Encoding` names a coding Courier decodes.
    /// - Parameters:
    ///   - contentEncoding: The coding's name: `gzip`, `x-gzip` or `deflate`.
    ///   - maxDecodedBytes: The most decoded bytes (the call's `maxResponseBytes`), `nil` for none.
    ///   - maxRatio: The most decoded bytes per encoded byte, past the first MiB.
    /// - Throws: `CourierError.Code.contentDecodingFailed` for another coding.
    public convenience init(contentEncoding: String, maxDecodedBytes: Int?, maxRatio: Int) throws {
        var fields = HTTPFields()
        fields[.contentEncoding] = contentEncoding
        guard let coding = try ContentCoding.of(fields) else {
            throw CourierError(code: .contentDecodingFailed, message: "no content coding to decode")
        }
        try self.init(coding: coding, limits: DecodingLimits(maxDecodedBytes: maxDecodedBytes, maxRatio: maxRatio))
    }

    package init(coding: ContentCoding, limits: DecodingLimits) throws {
        self.coding = coding.rawValue
        self.isGzip = coding == .gzip
        self.limits = limits
        do {
            decompressor = try ZlibDecompressor(algorithm: coding == .gzip ? .gzip : .zlib)
        } catch {
            throw CourierError(code: .contentDecodingFailed, message: "the \(coding.rawValue) decoder could not start", underlying: error)
        }
        let allocator = ByteBufferAllocator()
        window = allocator.buffer(capacity: Self.windowSize)
        empty = allocator.buffer(capacity: 16)
    }

    /// Decodes from `input` into one window.
    ///
    /// Call it again with the same buffer while it returns data; `nil` means every byte of
    /// `input` was consumed and nothing more comes out until the next chunk.
    /// - Parameter input: Encoded bytes; its reader index advances past what was consumed.
    /// - Returns: Decoded bytes (never empty), or `nil` when `input` is used up.
    /// - Throws: `CourierError.Code.contentDecodingFailed` for bytes that are not
    ///   the coding; `CourierError.Code.responseTooLarge` past a limit.
    public func decode(_ input: inout ByteBuffer) throws -> Data? {
        while true {
            if ended {
                guard input.readableBytes > 0 else { return nil }
                // Bytes after the end: another gzip member, or garbage.
                guard isGzip else {
                    throw CourierError(code: .contentDecodingFailed, message: "the deflate body has bytes after its end")
                }
                do { try decompressor.reset() } catch { throw failure(error) }
                ended = false
            }
            guard input.readableBytes > 0 || mayHoldOutput else { return nil }
            let before = input.readableBytes
            window.clear()
            var filled = false
            do {
                if input.readableBytes > 0 {
                    try decompressor.inflate(from: &input, to: &window)
                } else {
                    try decompressor.inflate(from: &empty, to: &window)
                }
            } catch let error as CompressNIOError where error == .bufferOverflow {
                filled = true
            } catch let error as CompressNIOError where error == .inputBufferOverflow {
                // Needs more input: nothing to do until the next chunk.
            } catch {
                throw failure(error)
            }
            if !filled, input.readableBytes > 0 {
                // zlib stopped with input left and room to write: the stream ended. (When it
                // ends exactly with the input, the next call, or finish(), finds out.)
                ended = true
            }
            mayHoldOutput = filled
            encodedByteCount += before - input.readableBytes
            if window.readableBytes > 0 {
                decodedByteCount += window.readableBytes
                if let violation = limits.violation(decoded: decodedByteCount, wire: encodedByteCount) { throw violation }
                return window.withUnsafeReadableBytes { Data($0) }
            }
        }
    }

    /// Checks that the body ended where its coding says it ends.
    /// - Throws: `CourierError.Code.contentDecodingFailed` for a stream cut short.
    public func finish() throws {
        // An empty body is an empty body, whatever its header says (servers send that for 204s
        // and empty 200s alike).
        if encodedByteCount == 0 { return }
        guard !mayHoldOutput else {
            throw CourierError(code: .contentDecodingFailed, message: "the decoder was finished with decoded bytes not yet read")
        }
        if ended { return }
        // With no input, zlib says "stream end" at the end of one and "no progress" before it.
        window.clear()
        do {
            try decompressor.inflate(from: &empty, to: &window)
        } catch let error as CompressNIOError where error == .inputBufferOverflow {
            throw CourierError(code: .contentDecodingFailed, message: "the \(coding) body is cut short: it ends before its coding does")
        } catch {
            throw failure(error)
        }
        guard window.readableBytes == 0 else {
            throw CourierError(code: .contentDecodingFailed, message: "the \(coding) body is cut short")
        }
    }

    private func failure(_ error: any Error) -> CourierError {
        if let error = error as? CourierError { return error }
        return CourierError(code: .contentDecodingFailed, message: "the body is not valid \(coding) data", underlying: error)
    }
}
