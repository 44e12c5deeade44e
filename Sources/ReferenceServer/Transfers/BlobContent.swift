import Hummingbird

/// The bytes of a blob: generated on demand for any range, never held whole.
///
/// A blob is a sequence of 64 KiB blocks; block `k` is one pseudo-random 64 KiB pattern
/// (drawn from the seed) rotated by `k × 7919` bytes. Any byte depends on its absolute
/// offset, so a download resumed at the wrong offset, or appended twice, fails its checksum;
/// and producing a range costs one copy per block, fast enough for a loopback benchmark.
struct BlobContent: Sendable {
    static let blockSize = 64 << 10
    /// The most bytes handed to the response writer at once.
    static let writeSize = 64 << 10

    /// The pattern written twice in a row, so that any rotation of it is one contiguous slice.
    private let doubled: [UInt8]

    init(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var pattern = [UInt8]()
        pattern.reserveCapacity(Self.blockSize * 2)
        for _ in 0..<(Self.blockSize / 8) {
            withUnsafeBytes(of: generator.next().littleEndian) { pattern.append(contentsOf: $0) }
        }
        pattern.append(contentsOf: pattern)
        self.doubled = pattern
    }

    /// Writes the bytes `range` of the blob.
    func write(_ range: Range<Int>, to writer: inout any ResponseBodyWriter) async throws {
        var position = range.lowerBound
        while position < range.upperBound {
            let end = min(range.upperBound, position + Self.writeSize)
            try await writer.write(bytes(position..<end))
            position = end
        }
    }

    /// The bytes `range` of the blob in one buffer.
    func bytes(_ range: Range<Int>) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: range.count)
        var position = range.lowerBound
        doubled.withUnsafeBytes { pattern in
            while position < range.upperBound {
                let block = position / Self.blockSize
                let within = position % Self.blockSize
                let count = min(Self.blockSize - within, range.upperBound - position)
                let start = (block &* 7919) % Self.blockSize + within
                buffer.writeBytes(UnsafeRawBufferPointer(rebasing: pattern[start..<(start + count)]))
                position += count
            }
        }
        return buffer
    }
}
