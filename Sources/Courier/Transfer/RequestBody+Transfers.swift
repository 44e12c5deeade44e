public import Foundation

extension RequestBody {
    /// A file, streamed from disk in chunks as it is sent, with its size as `Content-Length`.
    ///
    /// The file is never read into memory whole. It is read afresh for each attempt, so the
    /// body is replayable (retry, redirects and the authentication replay can send it again).
    ///
    /// ```swift
    /// let upload = client.upload(Request<Receipt>(method: .put, path: "/files/export.json",
    ///                                             body: try .file(exportURL, contentType: "application/json")))
    /// ```
    /// - Parameters:
    ///   - url: The file's URL.
    ///   - contentType: Its media type.
    ///   - chunkSize: How many bytes are read at a time (256 KiB by default).
    /// - Returns: The body.
    /// - Throws: ``CourierError/Code/fileSystem`` when the file is missing or cannot be read.
    public static func file(
        _ url: URL,
        contentType: String? = "application/octet-stream",
        chunkSize: Int = 256 << 10
    ) throws -> RequestBody {
        RequestBody(content: .bytes(try FileChunks.body(of: url, chunkSize: chunkSize)), contentType: contentType)
    }

    /// A `multipart/form-data` form, streamed part by part as it is sent.
    /// - Parameter form: The form; its boundary goes into the `Content-Type`.
    /// - Returns: The body.
    public static func multipart(_ form: MultipartFormData) -> RequestBody {
        RequestBody(content: .bytes(form.body), contentType: form.contentType)
    }

    /// The body's length when it is known before sending: bytes, files and forms of known
    /// parts; `nil` for an encodable value (known once encoded) and for streams of unknown length.
    var knownLength: Int64? {
        guard case .bytes(let body) = content, case .known(let length) = body.length else { return nil }
        return length
    }
}
