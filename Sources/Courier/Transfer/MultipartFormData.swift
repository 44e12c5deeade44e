public import Foundation

/// A `multipart/form-data` form (RFC 7578) whose parts are streamed when it is sent: text
/// fields, bytes in memory, files read from disk in chunks, or any ``HTTPBody``.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append("2026-11-22", name: "export_date")
/// try form.appendFile(at: exportURL, name: "export", contentType: "application/zip")
/// let upload = client.upload(Request<UploadReceipt>(method: .post, path: "/uploads", body: .multipart(form)))
/// ```
///
/// The form knows its total length when every part does (fields, bytes and files always do),
/// so it is sent with a `Content-Length`; it is replayable when every part is. Names and file
/// names are written in quotes with `"`, CR and LF percent-encoded, as HTML forms do.
public struct MultipartFormData: Sendable {
    /// The boundary between parts; it is part of ``contentType``.
    public let boundary: String
    private var parts: [Part] = []

    /// One part: its header lines (and the line break ending the part before), then its content.
    private struct Part: Sendable {
        let head: Data
        let content: MultipartChunks.Segment
    }

    /// The most bytes of a part held in memory that are merged with the header into one chunk.
    private static let mergedLimit = 64 << 10

    /// Makes an empty form.
    /// - Parameter boundary: The boundary: 1 to 70 letters, digits or `'()+_,-./:=?`; a random
    ///   one by default, which no part's content will contain by chance.
    public init(boundary: String = MultipartFormData.makeBoundary()) {
        precondition(Self.isValidBoundary(boundary), "a multipart boundary must be 1 to 70 characters from RFC 2046's set, got \"\(boundary)\"")
        self.boundary = boundary
    }

    /// The `Content-Type` to send the form with: `multipart/form-data; boundary=…`.
    public var contentType: String {
        "multipart/form-data; boundary=\(boundary)"
    }

    /// How many parts the form has.
    public var partCount: Int {
        parts.count
    }

    /// Appends a text field.
    /// - Parameters:
    ///   - value: The field's value, sent as UTF-8 without a `Content-Type`.
    ///   - name: The field's name.
    public mutating func append(_ value: String, name: String) {
        appendPart(name: name, filename: nil, contentType: nil, content: .bytes(Data(value.utf8)))
    }

    /// Appends bytes held in memory, as a file or as a field.
    /// - Parameters:
    ///   - data: The bytes.
    ///   - name: The field's name.
    ///   - filename: The file name to send, if the part is a file.
    ///   - contentType: The bytes' media type, if any.
    public mutating func append(_ data: Data, name: String, filename: String? = nil, contentType: String? = "application/octet-stream") {
        let content: MultipartChunks.Segment = data.count <= Self.mergedLimit ? .bytes(data) : .body(DataChunks.body(of: data))
        appendPart(name: name, filename: filename, contentType: contentType, content: content)
    }

    /// Appends a file, read from disk in chunks when the form is sent.
    /// - Parameters:
    ///   - url: The file.
    ///   - name: The field's name.
    ///   - filename: The file name to send; the URL's last component by default.
    ///   - contentType: The file's media type.
    /// - Throws: ``CourierError/Code/fileSystem`` when the file is missing or cannot be read.
    public mutating func appendFile(
        at url: URL,
        name: String,
        filename: String? = nil,
        contentType: String = "application/octet-stream"
    ) throws {
        let body = try FileChunks.body(of: url)
        appendPart(name: name, filename: filename ?? url.lastPathComponent, contentType: contentType, content: .body(body))
    }

    /// Appends a part read from a body, such as a stream produced as it is sent. A body of
    /// unknown length makes the form's length unknown; a single-use body makes it single-use.
    /// - Parameters:
    ///   - body: The part's content.
    ///   - name: The field's name.
    ///   - filename: The file name to send, if the part is a file.
    ///   - contentType: The content's media type, if any.
    public mutating func append(_ body: HTTPBody, name: String, filename: String? = nil, contentType: String? = "application/octet-stream") {
        appendPart(name: name, filename: filename, contentType: contentType, content: .body(body))
    }

    /// The form's total length in bytes, boundaries and headers included, when every part's is known.
    public var length: HTTPBody.Length {
        var total = Int64(closing.count)
        for part in parts {
            total += Int64(part.head.count)
            switch part.content {
            case .bytes(let data):
                total += Int64(data.count)
            case .body(let body):
                guard case .known(let count) = body.length else { return .unknown }
                total += count
            }
        }
        return .known(total)
    }

    /// The form as a streamed body: headers and boundaries are generated, and each part's
    /// content is read only when the transport asks for it.
    public var body: HTTPBody {
        var segments: [MultipartChunks.Segment] = []
        var pending = Data()
        for part in parts {
            pending.append(part.head)
            switch part.content {
            case .bytes(let data):
                pending.append(data)
            case .body(let body):
                segments.append(.bytes(pending))
                segments.append(.body(body))
                pending = Data()
            }
        }
        pending.append(closing)
        segments.append(.bytes(pending))
        let replayable = parts.allSatisfy { part in
            if case .body(let body) = part.content { return body.isReplayable }
            return true
        }
        return HTTPBody(MultipartChunks(segments: segments), length: length, iterationBehavior: replayable ? .multiple : .single)
    }

    /// A random boundary: `courier-` and 32 hexadecimal digits.
    public static func makeBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return "courier-" + hex(high) + hex(low)
    }

    // MARK: - Encoding

    private mutating func appendPart(name: String, filename: String?, contentType: String?, content: MultipartChunks.Segment) {
        var head = parts.isEmpty ? "" : "\r\n"
        head += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.quoted(name))\""
        if let filename { head += "; filename=\"\(Self.quoted(filename))\"" }
        head += "\r\n"
        if let contentType { head += "Content-Type: \(Self.headerValue(contentType))\r\n" }
        head += "\r\n"
        parts.append(Part(head: Data(head.utf8), content: content))
    }

    /// The line ending the last part and the closing delimiter.
    private var closing: Data {
        Data(((parts.isEmpty ? "" : "\r\n") + "--\(boundary)--\r\n").utf8)
    }

    /// A name for a quoted parameter: `"`, CR and LF percent-encoded (the HTML form encoding).
    static func quoted(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "%22"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A header value with any CR or LF removed, so it cannot end the header early.
    private static func headerValue(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0 != "\r" && $0 != "\n" })
    }

    private static func isValidBoundary(_ boundary: String) -> Bool {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'()+_,-./:=?".unicodeScalars)
        return (1...70).contains(boundary.unicodeScalars.count) && boundary.unicodeScalars.allSatisfy(allowed.contains)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
