/// Compresses request bodies for ``RequestOptions/compressesRequestBody``.
///
/// Set one as ``ClientConfiguration/requestBodyCompressor``; `CourierCompression`'s
/// `GzipCompressor` is the usual choice. The client sends the compressed body with
/// `Content-Encoding` set to ``contentCoding``, without `Content-Length` unless the compressed
/// body's length is known, and compresses again from the original body for every attempt.
public protocol RequestBodyCompressor: Sendable {
    /// The content coding's name for `Content-Encoding` (`gzip`).
    var contentCoding: String { get }

    /// The body, compressed. A body in memory should give one in memory (replayable, of
    /// known length); a streamed one, a stream compressed as it is read.
    /// - Parameter body: The original body.
    /// - Returns: The compressed body.
    /// - Throws: An error if the body cannot be compressed; the call fails with it.
    func compress(_ body: HTTPBody) throws -> HTTPBody
}
