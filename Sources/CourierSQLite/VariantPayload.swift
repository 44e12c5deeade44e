package import Courier
package import Foundation

/// What one row's payload holds before it is sealed: the plain cache key and the response.
///
/// The key lives here rather than in a column, so that the table's lookup columns can be
/// digests (see ``EntryProtection``) and the URL a user visited is stored only inside the
/// payload, which is sealed when the storage has an encryption key.
///
/// The encoding is a compact binary one (version 1), big-endian throughout:
///
/// | part | encoding |
/// |---|---|
/// | format version | `UInt8`, 1 |
/// | method, url, partition | strings: `UInt32` length, then UTF-8 bytes |
/// | status | `Int64` |
/// | request and response dates | `Double` bit patterns (seconds since 2001) as `UInt64` |
/// | header fields | `UInt32` count, then name and value strings |
/// | vary values | `UInt32` count, then name, a `UInt8` presence flag and, if present, the value |
/// | body | `UInt64` length, then the bytes |
///
/// Bodies are kept as they are (no base64), so a 1 MB image costs 1 MB and a few bytes.
package struct VariantPayload: Sendable, Hashable {
    /// The encoding's version; a payload of another version does not decode.
    static let formatVersion: UInt8 = 1

    /// The key the response was stored under.
    var key: CacheKey
    /// The response.
    package var response: CachedResponse

    /// The binary encoding.
    package func encoded() -> Data {
        var data = Data()
        data.reserveCapacity(response.body.count + 256)
        data.append(Self.formatVersion)
        data.appendString(key.method)
        data.appendString(key.url)
        data.appendString(key.partition)
        data.appendInteger(Int64(response.status))
        data.appendInteger(response.requestDate.timeIntervalSinceReferenceDate.bitPattern)
        data.appendInteger(response.responseDate.timeIntervalSinceReferenceDate.bitPattern)
        data.appendInteger(UInt32(response.fields.count))
        for field in response.fields {
            data.appendString(field.name)
            data.appendString(field.value)
        }
        let varyValues = response.varyValues.sorted { $0.key < $1.key }
        data.appendInteger(UInt32(varyValues.count))
        for (name, value) in varyValues {
            data.appendString(name)
            if let value {
                data.append(1)
                data.appendString(value)
            } else {
                data.append(0)
            }
        }
        data.appendInteger(UInt64(response.body.count))
        data.append(response.body)
        return data
    }

    /// Makes a payload.
    init(key: CacheKey, response: CachedResponse) {
        self.key = key
        self.response = response
    }

    /// Decodes a payload made by ``encoded()``.
    /// - Throws: ``PayloadReader/Malformed`` when the bytes are not such a payload.
    package init(decoding data: Data) throws {
        var reader = PayloadReader(data)
        guard try reader.readInteger(UInt8.self) == Self.formatVersion else { throw PayloadReader.Malformed() }
        key = CacheKey(method: try reader.readString(), url: try reader.readString(), partition: try reader.readString())
        let status = try reader.readInteger(Int64.self)
        guard let statusCode = Int(exactly: status), (100...599).contains(statusCode) else { throw PayloadReader.Malformed() }
        let requestDate = try reader.readDate()
        let responseDate = try reader.readDate()
        var fields: [CachedResponse.Field] = []
        for _ in 0..<(try reader.readCount(minimumBytesEach: 8)) {
            fields.append(CachedResponse.Field(name: try reader.readString(), value: try reader.readString()))
        }
        var varyValues: [String: String?] = [:]
        for _ in 0..<(try reader.readCount(minimumBytesEach: 5)) {
            let name = try reader.readString()
            switch try reader.readInteger(UInt8.self) {
            case 0: varyValues[name] = .some(nil)
            case 1: varyValues[name] = .some(try reader.readString())
            default: throw PayloadReader.Malformed()
            }
        }
        let bodyLength = try reader.readInteger(UInt64.self)
        guard let bodyCount = Int(exactly: bodyLength) else { throw PayloadReader.Malformed() }
        let body = try reader.readBytes(bodyCount)
        guard reader.isAtEnd, CachedResponse.plausibleDates.contains(requestDate), CachedResponse.plausibleDates.contains(responseDate) else {
            throw PayloadReader.Malformed()
        }
        response = CachedResponse(
            status: statusCode,
            fields: fields,
            body: body,
            requestDate: requestDate,
            responseDate: responseDate,
            varyValues: varyValues
        )
    }
}

extension Data {
    fileprivate mutating func appendInteger<Integer: FixedWidthInteger>(_ value: Integer) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }

    fileprivate mutating func appendString(_ string: String) {
        let bytes = Array(string.utf8)
        appendInteger(UInt32(bytes.count))
        append(contentsOf: bytes)
    }
}
