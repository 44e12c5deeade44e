import HTTPTypes
import NIOCore
import OpenAPIRuntime

/// `Idempotency-Key` for the CLARITY operations that honour it (health data uploads), as a
/// swift-openapi-runtime middleware: the same rules as ``IdempotentWrite`` on the Hummingbird
/// routes, over the same ``IdempotencyStore``, keyed by the caller ``ClarityCallMiddleware``
/// found.
///
/// A first request runs and its answer, with the fields the handler added, is kept, failures
/// the server answers included (rendered as CLARITY's error shapes: a 4xx the handler threw, a
/// 422 for a body the generated code could not read); a repeat with the same body gets that answer again with
/// `Idempotent-Replayed: true`; a reuse of the key for another request is 422, a repeat while
/// the first runs 409. Answers of 500 or more, and failures that are not the server's answers,
/// free the key for a retry.
///
/// It runs inside ``ClarityCallMiddleware`` (after it in the middleware list), whose caller and
/// collected body it reads from ``ClarityCall/current``.
struct ClarityIdempotencyMiddleware: ServerMiddleware {
    /// The operations that honour the header.
    static let operations: Set<String> = ["upload_health_data_api_v1_health_data__post"]

    let store: IdempotencyStore

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard Self.operations.contains(operationID), let key = request.headerFields[IdempotentWrite.keyHeader] else {
            return try await next(request, body, metadata)
        }
        guard (1...IdempotentWrite.maximumKeyLength).contains(key.count) else {
            throw APIError.invalidIdempotencyKey(maximumLength: IdempotentWrite.maximumKeyLength)
        }
        let userId = try ClarityCall.userId()
        let path = String((request.path ?? "").prefix { $0 != "?" })
        // ClarityCallMiddleware collected the body, within the operation's limit.
        let bytes = try ClarityCall.running().body ?? []
        let fingerprint = IdempotencyStore.Fingerprint(
            method: request.method.rawValue, path: path, bodyDigest: IdempotentWrite.digest(of: bytes)
        )
        switch try await store.begin(userId: userId, key: key, fingerprint: fingerprint).admission() {
        case .replay(let stored):
            return Self.answer(stored, replayed: true)
        case .run(let ticket):
            let stored: IdempotencyStore.StoredResponse
            do {
                stored = try await Self.stored(await next(request, HTTPBody(bytes), metadata), path: path)
            } catch {
                await store.abandon(userId: userId, key: key, ticket: ticket)
                throw error
            }
            guard stored.status.code < 500 else {
                await store.abandon(userId: userId, key: key, ticket: ticket)
                return Self.answer(stored, replayed: false)
            }
            await store.complete(userId: userId, key: key, ticket: ticket, response: stored)
            return Self.answer(stored, replayed: false)
        }
    }

    /// The handler's answer, or the error it threw as the server answers it, held in memory.
    private static func stored(
        _ run: @autoclosure () async throws -> (HTTPResponse, HTTPBody?),
        path: String
    ) async throws -> IdempotencyStore.StoredResponse {
        do {
            let (response, body) = try await run()
            var bytes: ArraySlice<UInt8> = []
            if let body { bytes = try await ArraySlice(collecting: body, upTo: .max) }
            // What the handler added to its answer (a `Location`) is kept with it, so that a
            // replay carries it too; ClarityCallMiddleware adds it to the first answer after this.
            var fields = response.headerFields
            for field in try ClarityCall.running().answer.fields { fields[field.name] = field.value }
            return IdempotencyStore.StoredResponse(status: response.status, headers: fields, body: ByteBuffer(bytes: bytes))
        } catch let error as ServerError {
            guard let failure = APIErrorMiddleware<ReferenceRequestContext>.apiError(for: error) else { throw error }
            let rendered = try ClarityErrorShape.encoded(failure, path: path)
            return IdempotencyStore.StoredResponse(status: rendered.status, headers: rendered.fields, body: ByteBuffer(bytes: rendered.body))
        }
    }

    /// A kept answer as the runtime returns it.
    private static func answer(_ stored: IdempotencyStore.StoredResponse, replayed: Bool) -> (HTTPResponse, HTTPBody?) {
        var fields = stored.headers
        if replayed { fields[IdempotentWrite.replayedHeader] = "true" }
        let response = HTTPResponse(status: stored.status, headerFields: fields)
        return (response, stored.body.readableBytes == 0 && stored.status == .noContent ? nil : HTTPBody(Array(stored.body.readableBytesView)))
    }
}
