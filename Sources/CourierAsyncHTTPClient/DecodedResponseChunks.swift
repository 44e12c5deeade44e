import AsyncHTTPClient
import Courier
import CourierCompression
import Foundation
import NIOCore

/// A compressed response body from AsyncHTTPClient, decoded as it arrives: chunks of decoded
/// `Data`, a window at a time, so memory stays flat however far the body inflates.
///
/// The call's limits apply to the decoded bytes (`RequestOptions.maxResponseBytes`
/// and the decompression ratio, both ending in `CourierError.Code.responseTooLarge`);
/// a body that is not its coding, or is cut short, ends in
/// `CourierError.Code.contentDecodingFailed`. The encoded size is written to the
/// call's record as it grows.
struct DecodedResponseChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let body: HTTPClientResponse.Body
    let coding: ContentCoding
    let limits: DecodingLimits
    let record: CallRecord

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: HTTPClientResponse.Body.AsyncIterator
        let coding: ContentCoding
        let limits: DecodingLimits
        let record: CallRecord
        var decoder: ContentDecoder?
        var pending = ByteBuffer()
        var received = 0
        var finished = false

        mutating func next() async throws -> Data? {
            if finished { return nil }
            do {
                return try await decodeNext()
            } catch {
                // A body that failed stays failed: nothing more comes out of it.
                finished = true
                throw error
            }
        }

        private mutating func decodeNext() async throws -> Data? {
            if decoder == nil { decoder = try ContentDecoder(coding: coding, limits: limits) }
            guard let decoder else { return nil }
            while true {
                if let decoded = try decoder.decode(&pending) { return decoded }
                let buffer: ByteBuffer?
                do {
                    buffer = try await base.next()
                } catch {
                    throw AHCErrorMapping.map(error)
                }
                guard let buffer else {
                    finished = true
                    try decoder.finish()
                    return nil
                }
                received += buffer.readableBytes
                record.noteEncodedBodyBytes(received)
                pending = buffer
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: body.makeAsyncIterator(), coding: coding, limits: limits, record: record)
    }

    /// Decodes a whole body already in memory.
    static func decodeWhole(_ encoded: ByteBuffer, coding: ContentCoding, limits: DecodingLimits) throws -> Data {
        let decoder = try ContentDecoder(coding: coding, limits: limits)
        var input = encoded
        var output = Data()
        while let decoded = try decoder.decode(&input) { output.append(decoded) }
        try decoder.finish()
        return output
    }
}
