import CompressNIO
import Hummingbird

/// Gzip request bodies, as a backend behind a compressing client takes them: CLARITY's health
/// data and HealthKit uploads, and `/debug/echo`, accept them; any other route, and any coding
/// other than gzip, answers 415 Unsupported Media Type.
///
/// Two parts, so that nothing is inflated for a caller who may not send it: the router-wide one
/// (``decodes`` `false`) only refuses what no route takes, before authentication, without
/// reading the body; the one on the routes' groups (``decodes`` `true`), after their access
/// check, inflates the body (CLARITY's operations, which run through the generated server, are
/// inflated by ``ClarityCallMiddleware`` after its token check, with ``gunzip(_:upTo:)``), bounded (``maximumEncodedBytes`` read, ``maximumDecodedBytes``
/// inflated, 413 past either) and strictly (a stream cut short, or with bytes after its end,
/// is a 400).
struct RequestDecompressionMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The largest decoded body accepted.
    static var maximumDecodedBytes: Int { 128 << 20 }
    /// The largest encoded body read.
    static var maximumEncodedBytes: Int { 32 << 20 }
    /// The paths whose bodies may come gzip-compressed.
    static var acceptingPaths: Set<String> { ["/api/v1/health-data/", "/api/v1/healthkit/", "/debug/echo"] }

    /// Whether this part inflates bodies (on a route group) or only refuses them (router-wide).
    let decodes: Bool

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
        guard decodes else { return try await next(request, context) }
        let encoded: ByteBuffer
        do {
            encoded = try await request.body.collect(upTo: Self.maximumEncodedBytes)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw APIError.payloadTooLarge("a compressed body may be at most \(Self.maximumEncodedBytes) bytes")
        }
        let decoded = try Self.gunzip(encoded)
        var head = request.head
        head.headerFields[.contentEncoding] = nil
        head.headerFields[.contentLength] = String(decoded.readableBytes)
        head.headerFields[.init("X-Encoded-Length")!] = String(encoded.readableBytes)
        return try await next(Request(head: head, body: RequestBody(buffer: decoded)), context)
    }

    /// The body inflated: one gzip stream, whole, and nothing after it.
    /// - Parameters:
    ///   - encoded: The gzip stream.
    ///   - limit: The most bytes it may inflate to (413 past it); ``maximumDecodedBytes`` by default.
    static func gunzip(_ encoded: ByteBuffer, upTo limit: Int = maximumDecodedBytes) throws -> ByteBuffer {
        let decompressor = try ZlibDecompressor(algorithm: .gzip)
        var input = encoded
        var output = ByteBuffer()
        var window = ByteBufferAllocator().buffer(capacity: 64 << 10)
        var ended = false
        while true {
            window.clear()
            var full = false
            do {
                try decompressor.inflate(from: &input, to: &window)
                // No error with input left means the stream ended there.
                ended = input.readableBytes > 0 || ended
            } catch let error as CompressNIOError where error == .bufferOverflow {
                full = true
            } catch let error as CompressNIOError where error == .inputBufferOverflow {
                // All input used, the stream not over: cut short.
            } catch {
                throw APIError.badRequest("the body is not valid gzip")
            }
            output.writeBuffer(&window)
            guard output.readableBytes <= limit else {
                throw APIError.payloadTooLarge("the decoded body may be at most \(limit) bytes")
            }
            if full { continue }
            if ended, input.readableBytes > 0 { throw APIError.badRequest("the gzip body has bytes after its end") }
            if input.readableBytes == 0 { break }
        }
        if !ended {
            // With no input left, zlib says "stream end" at its end and "no progress" before.
            var none = ByteBufferAllocator().buffer(capacity: 16)
            window.clear()
            do {
                try decompressor.inflate(from: &none, to: &window)
            } catch {
                throw APIError.badRequest("the gzip body is cut short")
            }
        }
        return output
    }
}
