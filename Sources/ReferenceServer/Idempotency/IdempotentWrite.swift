import Crypto
import Foundation
import Hummingbird

/// Runs a write route with `Idempotency-Key` semantics.
///
/// Without the header the route runs as usual. With it, per user: the first request runs
/// and its answer (status, headers, body) is kept for 24 hours; a repeat with the same method,
/// path and body gets that answer again with `Idempotent-Replayed: true` and changes nothing;
/// the same key on another method, path or body is 422 `idempotency_key_reused`; a repeat
/// while the first is still running is 409 `idempotency_key_in_flight`.
///
/// Answers with a status of 500 or more, and requests that end in an error other than an
/// ``APIError`` (cancellation included), are not kept: the key is freed for a retry. A request
/// still running after the store's in-flight timeout loses its key to a repeat, and a new key
/// that finds the store full of running requests is 503 `idempotency_store_full` with
/// `Retry-After` (see ``IdempotencyStore``).
struct IdempotentWrite: Sendable {
    /// The longest key accepted.
    static let maximumKeyLength = 255
    /// The request header that carries the key.
    static let keyHeader = HeaderName("Idempotency-Key")!
    /// The response header that marks a replayed answer.
    static let replayedHeader = HeaderName("Idempotent-Replayed")!

    let store: IdempotencyStore

    /// Runs `handler` for `request`, or answers from the store.
    /// - Parameters:
    ///   - request: The request; its body is collected (up to ``Request/maximumJSONBodySize``) to be fingerprinted.
    ///   - context: The request's context; the request must be authenticated.
    ///   - handler: The route.
    func respond(
        to request: Request,
        context: ReferenceRequestContext,
        handler: (Request, ReferenceRequestContext) async throws -> Response
    ) async throws -> Response {
        guard let key = request.headers[Self.keyHeader] else {
            return try await handler(request, context)
        }
        guard (1...Self.maximumKeyLength).contains(key.count) else {
            throw APIError.invalidIdempotencyKey(maximumLength: Self.maximumKeyLength)
        }
        let userId = try context.requireUserId()
        var request = request
        let fingerprint = try await Self.fingerprint(of: &request)

        switch try await store.begin(userId: userId, key: key, fingerprint: fingerprint).admission() {
        case .replay(let stored):
            return Self.response(from: stored, replayed: true)
        case .run(let ticket):
            return try await run(handler, request: request, context: context, userId: userId, key: key, ticket: ticket)
        }
    }

    private func run(
        _ handler: (Request, ReferenceRequestContext) async throws -> Response,
        request: Request,
        context: ReferenceRequestContext,
        userId: String,
        key: String,
        ticket: IdempotencyStore.Ticket
    ) async throws -> Response {
        let response: Response
        do {
            response = try await handler(request, context)
        } catch let error as APIError {
            response = try APIErrorMiddleware<ReferenceRequestContext>.render(error, path: request.uri.path)
        } catch {
            await store.abandon(userId: userId, key: key, ticket: ticket)
            throw error
        }
        guard response.status.code < 500 else {
            await store.abandon(userId: userId, key: key, ticket: ticket)
            return response
        }
        let body: ByteBuffer
        do {
            body = try await ResponseBodyCollector.collect(response.body)
        } catch {
            await store.abandon(userId: userId, key: key, ticket: ticket)
            throw error
        }
        let stored = IdempotencyStore.StoredResponse(status: response.status, headers: response.headers, body: body)
        await store.complete(userId: userId, key: key, ticket: ticket, response: stored)
        return Self.response(from: stored, replayed: false)
    }

    /// A stored answer as a response; 204 and 304 go without a body and without `Content-Length`.
    private static func response(from stored: IdempotencyStore.StoredResponse, replayed: Bool) -> Response {
        var headers = stored.headers
        if replayed {
            headers[replayedHeader] = "true"
        }
        if stored.status == .noContent || stored.status == .notModified {
            return Response.bodiless(status: stored.status, headers: headers)
        }
        return Response(status: stored.status, headers: headers, body: ResponseBody(byteBuffer: stored.body))
    }

    /// The method, path and body digest of a request; collects the body so the route can still read it.
    private static func fingerprint(of request: inout Request) async throws -> IdempotencyStore.Fingerprint {
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: Request.maximumJSONBodySize)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw APIError.payloadTooLarge("request body exceeds \(Request.maximumJSONBodySize) bytes")
        }
        return IdempotencyStore.Fingerprint(
            method: request.method.rawValue,
            path: request.uri.path,
            bodyDigest: digest(of: body.readableBytesView)
        )
    }

    /// The lowercase hex SHA-256 of a body, as fingerprints carry it.
    static func digest(of body: some DataProtocol) -> String {
        SHA256.hash(data: body).map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }
}
