import Foundation
import Hummingbird

/// Diagnostic routes under `/debug` that exercise transports: slow answers, large streamed
/// bodies, echoed uploads and bodies cut short.
struct DebugTransferRoutes: Sendable {
    /// The longest `/debug/slow` waits, in milliseconds; longer requests are clamped.
    static let maximumDelayMilliseconds = 30_000
    /// The largest `/debug/bytes` body; larger requests are clamped.
    static let maximumGeneratedBytes = 64 << 20
    /// The size of each chunk `/debug/bytes` writes.
    static let chunkSize = 64 << 10
    /// The largest body `/debug/echo` accepts.
    static let maximumEchoBytes = 128 << 20
    /// The request headers `/debug/echo` reflects as `X-Echo-Header-<name>`.
    static let echoedHeaderNames = ["X-Custom", "Accept", "Accept-Encoding", "User-Agent", "X-Request-ID", "Idempotency-Key", "X-Encoded-Length"]
    /// What `/debug/truncated` declares and what it actually sends.
    static let truncatedDeclaredLength = 100_000
    static let truncatedSentLength = 1_000

    /// Adds the routes to a group mounted at `/debug`.
    func register<Context: RequestContext>(on debug: RouterGroup<Context>) {
        debug.get("slow") { request, _ in try await Self.slow(request) }
        debug.get("bytes") { request, _ in try Self.bytes(request) }
        debug.head("bytes") { request, _ in try Self.bytesHead(request) }
        debug.post("echo") { request, _ in try await Self.echo(request) }
        debug.put("echo") { request, _ in try await Self.echo(request) }
        debug.delete("echo") { request, _ in try await Self.echo(request) }
        debug.get("truncated") { request, _ in try Self.truncated(request) }
    }

    /// Waits `ms` milliseconds (clamped to ``maximumDelayMilliseconds``), then answers `{"waitedMs": N}`.
    /// The wait ends early, with an error, if the server is stopped.
    private static func slow(_ request: Request) async throws -> Response {
        let query = QueryItems(rawQuery: request.uri.query)
        guard query.first("ms") != nil else { throw APIError.validationFailed("ms is required") }
        let requested = try query.integer("ms", default: 0, in: 0...Int.max)
        let waited = min(requested, maximumDelayMilliseconds)
        try await Task.sleep(for: .milliseconds(waited))
        return try Response.json(["waitedMs": waited])
    }

    /// The head `GET /debug/bytes` would answer: its `Content-Length`, and no body.
    private static func bytesHead(_ request: Request) throws -> Response {
        let query = QueryItems(rawQuery: request.uri.query)
        guard query.first("count") != nil else { throw APIError.validationFailed("count is required") }
        let count = min(try query.integer("count", default: 0, in: 0...Int.max), maximumGeneratedBytes)
        return Response(
            status: .ok,
            headers: [.contentType: "application/octet-stream", .contentLength: String(count)],
            body: ResponseBody(contentLength: count) { writer in try await writer.finish(nil) }
        )
    }

    /// Streams exactly `count` bytes (clamped to ``maximumGeneratedBytes``), byte `i` being `i % 251`,
    /// in chunks of ``chunkSize``, with a `Content-Length`.
    private static func bytes(_ request: Request) throws -> Response {
        let query = QueryItems(rawQuery: request.uri.query)
        guard query.first("count") != nil else { throw APIError.validationFailed("count is required") }
        let count = min(try query.integer("count", default: 0, in: 0...Int.max), maximumGeneratedBytes)
        // `chunked=1` leaves the length out, so a client learns the size only as bytes arrive.
        let body = ResponseBody(contentLength: query.first("chunked") == "1" ? nil : count) { writer in
            let pattern = BytePattern(chunkSize: chunkSize)
            var offset = 0
            while offset < count {
                let length = min(chunkSize, count - offset)
                try await writer.write(pattern.chunk(startingAt: offset, length: length))
                offset += length
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: body)
    }

    /// Answers with the request's body, its `Content-Type`, `X-Echo-Length` and the echoed headers.
    private static func echo(_ request: Request) async throws -> Response {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: maximumEchoBytes)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw APIError.payloadTooLarge("echo accepts at most \(maximumEchoBytes) bytes")
        }
        var headers: HTTPFields = [:]
        if let contentType = request.headers.joinedValues(for: .contentType) {
            headers[.contentType] = contentType
        }
        if let echoLength = HeaderName("X-Echo-Length") {
            headers[echoLength] = String(body.readableBytes)
        }
        for name in echoedHeaderNames {
            guard let requestName = HeaderName(name),
                  let responseName = HeaderName("X-Echo-Header-\(name)"),
                  let value = request.headers.joinedValues(for: requestName)
            else { continue }
            headers[responseName] = value
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
    }

    /// Declares ``truncatedDeclaredLength`` bytes (or `declared`, when given and larger than what
    /// is sent), sends ``truncatedSentLength``, then fails the body, which makes Hummingbird close
    /// the connection.
    private static func truncated(_ request: Request) throws -> Response {
        let query = QueryItems(rawQuery: request.uri.query)
        let declared = try query.integer("declared", default: truncatedDeclaredLength, in: (truncatedSentLength + 1)...maximumGeneratedBytes)
        let body = ResponseBody(contentLength: declared) { writer in
            let pattern = BytePattern(chunkSize: truncatedSentLength)
            try await writer.write(pattern.chunk(startingAt: 0, length: truncatedSentLength))
            // Give the event loop a moment to flush the partial body before the connection closes.
            try await Task.sleep(for: .milliseconds(20))
            throw TruncatedBodyError()
        }
        return Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: body)
    }
}

/// Thrown on purpose by `/debug/truncated` to cut its body short.
struct TruncatedBodyError: Error {}

/// The byte pattern of the generated bodies: byte `i` is `UInt8(i % 251)`.
struct BytePattern: Sendable {
    static let period = 251
    private let bytes: [UInt8]

    /// Prepares a pattern from which chunks up to `chunkSize` bytes can be cut.
    init(chunkSize: Int) {
        self.bytes = (0..<(chunkSize + Self.period)).map { UInt8($0 % Self.period) }
    }

    /// The bytes `offset ..< offset + length` of the pattern; `length` must not exceed the chunk size.
    func chunk(startingAt offset: Int, length: Int) -> ByteBuffer {
        let start = offset % Self.period
        return ByteBuffer(bytes: bytes[start..<(start + length)])
    }
}
