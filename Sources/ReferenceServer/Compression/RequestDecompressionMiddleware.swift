import CompressNIO
import Hummingbird

/// Inflates gzip request bodies on the routes that take them (CLARITY's health data and
/// HealthKit uploads, and `/debug/echo`), as a backend behind a compressing client does; any
/// other route answers a compressed body with 415 Unsupported Media Type, as does any coding
/// other than gzip.
///
/// The decoded body is bounded (``maximumDecodedBytes``, 413 past it) and read whole: the
/// routes that take compressed bodies collect them anyway.
struct RequestDecompressionMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The largest decoded body accepted.
    static var maximumDecodedBytes: Int { 128 << 20 }
    /// The largest encoded body read.
    static var maximumEncodedBytes: Int { 32 << 20 }
    /// The paths whose bodies may come gzip-compressed.
    static var acceptingPaths: Set<String> { ["/api/v1/health-data", "/api/v1/healthkit_upload", "/debug/echo"] }

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let coding = request.headers[.contentEncoding]?.lowercased(), coding != "identity" else {
            return try await next(request, context)
        }
        guard coding == "gzip" || coding == "x-gzip", Self.acceptingPaths.contains(request.uri.path) else {
            throw APIError(status: .unsupportedMediaType, code: "unsupported_encoding", message: "this route does not accept a \(coding)-encoded body")
        }
        var encoded: ByteBuffer
        do {
            encoded = try await request.body.collect(upTo: Self.maximumEncodedBytes)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw APIError.payloadTooLarge("a compressed body may be at most \(Self.maximumEncodedBytes) bytes")
        }
        let encodedLength = encoded.readableBytes
        let decoded: ByteBuffer
        do {
            decoded = try encoded.decompress(with: .gzip(), maxSize: Self.maximumDecodedBytes)
        } catch let error as CompressNIOError where error == .bufferOverflow {
            throw APIError.payloadTooLarge("the decoded body may be at most \(Self.maximumDecodedBytes) bytes")
        } catch {
            throw APIError.badRequest("the body is not valid gzip")
        }
        var head = request.head
        head.headerFields[.contentEncoding] = nil
        head.headerFields[.contentLength] = String(decoded.readableBytes)
        head.headerFields[.init("X-Encoded-Length")!] = String(encodedLength)
        return try await next(Request(head: head, body: RequestBody(buffer: decoded)), context)
    }
}
