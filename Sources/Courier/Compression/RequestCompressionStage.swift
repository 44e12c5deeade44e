import HTTPTypes
import Synchronization

/// The chain stage that compresses request bodies which ask for it
/// (``RequestOptions/compressesRequestBody``), and falls back to plain bodies for a server
/// that refuses them.
///
/// It sits below retry, authentication and redirects, just above the attempt's span and
/// network middleware, so every attempt (a retry, a refreshed
/// credential's resend, a followed 307) compresses again from the original body, and
/// network middleware logs the request as it goes out, `Content-Encoding` included.
///
/// A server that answers 415 Unsupported Media Type to a compressed body gets the same request
/// again, uncompressed, once, if the body can be sent twice; its origin is then remembered
/// and sent uncompressed bodies for the life of the client.
final class RequestCompressionStage: Middleware {
    let compressor: any RequestBodyCompressor
    /// Origins (`scheme://authority`) that answered 415 to a compressed body.
    private let refusingOrigins = Mutex<Set<String>>([])

    init(compressor: any RequestBodyCompressor) {
        self.compressor = compressor
    }

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: Next
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard context.options.compressesRequestBody, let body, !request.headerFields.contains(.contentEncoding) else {
            return try await next(request, body, context)
        }
        let origin = "\(request.scheme ?? "")://\(request.authority ?? "")"
        if refusingOrigins.withLock({ $0.contains(origin) }) {
            return try await next(request, body, context)
        }
        var compressed = request
        compressed.headerFields[.contentEncoding] = compressor.contentCoding
        compressed.headerFields[.contentLength] = nil
        let compressedBody: HTTPBody
        do {
            compressedBody = try compressor.compress(body)
        } catch {
            throw CourierError(code: .invalidRequest, message: "the request body could not be compressed", underlying: error)
        }
        let (response, responseBody) = try await next(compressed, compressedBody, context)
        guard response.status.code == 415 else { return (response, responseBody) }
        refusingOrigins.withLock { _ = $0.insert(origin) }
        guard body.isReplayable else { return (response, responseBody) }
        _ = await responseBody?.prefix(upTo: 64 << 10)
        return try await next(request, body, context)
    }
}
