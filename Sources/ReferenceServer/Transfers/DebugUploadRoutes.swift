import Crypto
import Foundation
import Hummingbird

/// Upload sinks under `/debug`, which stream the request body rather than collect it:
///
/// - `POST` or `PUT /debug/upload` → `{"bytes": N, "sha256": "…", "contentLength": "…",
///   "contentType": "…"}`: the bytes received and their digest, with the request's
///   `Content-Length` (absent for a chunked body) and `Content-Type`. `?digest=none` skips
///   the digest, for benchmarks that measure the transfer rather than the hash.
/// - `POST /debug/multipart` → `{"parts": [{"name", "filename", "contentType", "bytes",
///   "sha256"}]}`: a `multipart/form-data` body (up to ``maximumFormBytes``) taken apart by
///   ``MultipartFormReader``; a malformed form is a 400 that says what is wrong.
struct DebugUploadRoutes: Sendable {
    /// The largest form `/debug/multipart` reads.
    static let maximumFormBytes = 64 << 20

    private struct Received: Encodable {
        let bytes: Int
        let sha256: String?
        let contentLength: String?
        let contentType: String?
    }

    private struct Form: Encodable {
        let parts: [Part]
    }

    private struct Part: Encodable {
        let name: String
        let filename: String?
        let contentType: String?
        let bytes: Int
        let sha256: String
    }

    /// Adds the routes to a group mounted at `/debug`.
    func register<Context: RequestContext>(on debug: RouterGroup<Context>) {
        debug.post("upload") { request, _ in try await Self.receive(request) }
        debug.put("upload") { request, _ in try await Self.receive(request) }
        debug.post("multipart") { request, _ in try await Self.readForm(request) }
    }

    private static func receive(_ request: Request) async throws -> Response {
        let digesting = QueryItems(rawQuery: request.uri.query).first("digest") != "none"
        var hasher = SHA256()
        var count = 0
        for try await buffer in request.body {
            count += buffer.readableBytes
            if digesting {
                buffer.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
            }
        }
        let received = Received(
            bytes: count,
            sha256: digesting ? hex(hasher.finalize()) : nil,
            contentLength: request.headers[.contentLength],
            contentType: request.headers[.contentType]
        )
        return try Response.json(received)
    }

    private static func readForm(_ request: Request) async throws -> Response {
        guard let contentType = request.headers[.contentType], let boundary = MultipartFormReader.boundary(in: contentType) else {
            throw APIError.badRequest("expected Content-Type: multipart/form-data with a boundary")
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: maximumFormBytes)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw APIError.payloadTooLarge("a form of at most \(maximumFormBytes) bytes is read")
        }
        let parts: [MultipartFormReader.Part]
        do {
            parts = try MultipartFormReader(boundary: boundary).parts(of: Array(body.readableBytesView))
        } catch let error as MultipartFormReader.Malformed {
            throw APIError.badRequest("malformed multipart body: \(error.reason)")
        }
        let summary = parts.map { part in
            Part(
                name: part.name, filename: part.filename, contentType: part.contentType,
                bytes: part.content.count, sha256: hex(SHA256.hash(data: part.content))
            )
        }
        return try Response.json(Form(parts: summary))
    }

    private static func hex(_ digest: some Sequence<UInt8>) -> String {
        digest.map { byte in byte < 16 ? "0" + String(byte, radix: 16) : String(byte, radix: 16) }.joined()
    }
}
