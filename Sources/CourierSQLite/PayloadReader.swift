import Foundation

/// Reads ``VariantPayload``'s binary encoding, checking every length against the bytes left,
/// so that damaged bytes end in ``Malformed`` rather than a crash or a huge allocation.
struct PayloadReader {
    /// The bytes are not a well-formed payload.
    struct Malformed: Error {}

    private let bytes: Data
    private var offset: Int

    /// Makes a reader at the start of `data`.
    init(_ data: Data) {
        self.bytes = Data(data)
        self.offset = 0
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { offset == bytes.count }

    private var remaining: Int { bytes.count - offset }

    /// Reads a big-endian integer.
    mutating func readInteger<Integer: FixedWidthInteger>(_ type: Integer.Type) throws -> Integer {
        let size = MemoryLayout<Integer>.size
        guard remaining >= size else { throw Malformed() }
        var value = Integer.zero
        for byte in bytes[offset..<(offset + size)] {
            value = value << 8 | Integer(byte)
        }
        offset += size
        return value
    }

    /// Reads `count` raw bytes.
    mutating func readBytes(_ count: Int) throws -> Data {
        guard count >= 0, remaining >= count else { throw Malformed() }
        let result = bytes.subdata(in: offset..<(offset + count))
        offset += count
        return result
    }

    /// Reads a string: a `UInt32` length, then UTF-8 bytes.
    mutating func readString() throws -> String {
        let length = Int(try readInteger(UInt32.self))
        guard let string = String(validating: try readBytes(length), as: UTF8.self) else { throw Malformed() }
        return string
    }

    /// Reads a date stored as the bit pattern of its seconds since 2001.
    mutating func readDate() throws -> Date {
        let seconds = Double(bitPattern: try readInteger(UInt64.self))
        guard seconds.isFinite else { throw Malformed() }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    /// Reads a `UInt32` element count, refusing counts that the bytes left could not hold.
    /// - Parameter minimumBytesEach: The fewest bytes one element takes.
    mutating func readCount(minimumBytesEach: Int) throws -> Int {
        let count = Int(try readInteger(UInt32.self))
        guard count <= remaining / minimumBytesEach else { throw Malformed() }
        return count
    }
}
