import Foundation
import HTTPTypes
import NIOCore
import OpenAPIRuntime

/// The swift-openapi-runtime middleware in front of every CLARITY operation: it does what the
/// generated server leaves to its user before and after ``ClarityService``'s handler.
///
/// Before: it checks the access token as the operation's ``ClarityOperationRules`` ask (401
/// `Authentication required` or `token_expired` otherwise), collects the body up to the
/// operation's limit (413 past it), inflating a gzip body where the operation takes one, and
/// binds a ``ClarityCall`` with the caller to ``ClarityCall/current`` for the handler. Bodies
/// are read only after the token was checked, so nothing is collected or inflated for a caller
/// who may not send it.
///
/// After: it adds the header fields the handler asked for and, for a `200` the handler marked
/// cacheable, an `ETag` over the body, answering a matching `If-None-Match` (or, without one,
/// `If-Modified-Since`) with `304 Not Modified`.
struct ClarityCallMiddleware: ServerMiddleware {
    /// Where tokens are checked.
    let auth: AuthService

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let rules = ClarityOperationRules.of(operationID)
        let caller = try await caller(of: request, access: rules.access)
        var request = request
        let bytes = try await Self.collect(body, of: &request, rules: rules)
        try Self.checkJSONSyntax(bytes, of: request)
        let call = ClarityCall(request: request, caller: caller, body: bytes)
        let (response, responseBody) = try await ClarityCall.$current.withValue(call) {
            try await next(request, bytes.map { HTTPBody($0) }, metadata)
        }
        return try await Self.finish(response, responseBody, answer: call.answer, request: request)
    }

    /// The signed-in caller, as the operation's access asks.
    private func caller(of request: HTTPRequest, access: ClarityOperationRules.Access) async throws -> ClarityCall.Caller? {
        guard access != .open else { return nil }
        let token = request.headerFields[.authorization].flatMap(AccessTokenMiddleware.bearerToken(in:))
        guard let token else {
            if access == .optional { return nil }
            throw APIError.unauthorized("Authentication required")
        }
        switch await auth.checkAccess(token) {
        case .valid(let userId):
            return ClarityCall.Caller(userId: userId, accessToken: token)
        case .expired where access == .signed:
            throw APIError.tokenExpired()
        case .unknown where access == .signed:
            throw APIError.unauthorized("Authentication required")
        case .expired, .unknown:
            return nil
        }
    }

    /// The body collected (and inflated) within the operation's limits; the request's
    /// `Content-Encoding` and `Content-Length` then describe what the handler reads.
    static func collect(_ body: HTTPBody?, of request: inout HTTPRequest, rules: ClarityOperationRules) async throws -> ArraySlice<UInt8>? {
        guard let body else { return nil }
        let coding = request.headerFields[.contentEncoding]?.lowercased()
        let inflates = coding == "gzip" || coding == "x-gzip"
        if let coding, coding != "identity", !inflates || !rules.acceptsGzip {
            throw APIError(status: .unsupportedMediaType, code: "unsupported_encoding", message: "this route does not accept a \(coding)-encoded body")
        }
        let limit = inflates ? RequestDecompressionMiddleware<ReferenceRequestContext>.maximumEncodedBytes : rules.maximumBodyBytes
        if let declared = request.headerFields[.contentLength].flatMap(Int.init), declared > limit {
            throw APIError.payloadTooLarge("request body exceeds \(limit) bytes")
        }
        var bytes: ArraySlice<UInt8> = []
        for try await chunk in body {
            guard bytes.count + chunk.count <= limit else { throw APIError.payloadTooLarge("request body exceeds \(limit) bytes") }
            bytes.append(contentsOf: chunk)
        }
        if inflates {
            let decoded = try RequestDecompressionMiddleware<ReferenceRequestContext>.gunzip(ByteBuffer(bytes: bytes), upTo: rules.maximumBodyBytes)
            request.headerFields[.contentEncoding] = nil
            request.headerFields[HTTPField.Name("X-Encoded-Length")!] = String(bytes.count)
            bytes = ArraySlice(decoded.readableBytesView)
        }
        request.headerFields[.contentLength] = String(bytes.count)
        return bytes
    }

    /// Refuses a JSON body that is not JSON at all, as FastAPI does before it looks at the
    /// schema: 422 `json_invalid` at `["body"]`. (The generated decoder's own error does not say
    /// whether the text or a value in it was wrong.)
    static func checkJSONSyntax(_ bytes: ArraySlice<UInt8>?, of request: HTTPRequest) throws {
        guard let bytes, !bytes.isEmpty, request.headerFields[.contentType]?.lowercased().contains("json") ?? false else { return }
        guard (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil else {
            throw APIError.requestInvalid("json_invalid", at: ["body"], "JSON decode error")
        }
    }

    /// The response with what the handler asked for added.
    static func finish(_ response: HTTPResponse, _ body: HTTPBody?, answer: ClarityCall.Answer, request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody?) {
        var response = response
        var body = body
        for field in answer.fields { response.headerFields[field.name] = field.value }
        if let undocumented = answer.undocumentedBody {
            response.headerFields[.contentType] = undocumented.contentType
            response.headerFields[.contentLength] = String(undocumented.bytes.count)
            body = HTTPBody(undocumented.bytes)
        }
        guard let cacheable = answer.cacheable, response.status == .ok, let body else { return (response, body) }
        let bytes = try await ArraySlice(collecting: body, upTo: 16 << 20)
        let etag = ConditionalRequest.strongETag(of: bytes)
        response.headerFields[.eTag] = etag
        response.headerFields[.cacheControl] = cacheable.cacheControl
        if let lastModified = cacheable.lastModified { response.headerFields[.lastModified] = IMFFixdate.string(from: lastModified) }
        if ConditionalRequest.isNotModified(request.headerFields, etag: etag, lastModified: cacheable.lastModified) {
            response.status = .notModified
            response.headerFields[.contentLength] = nil
            response.headerFields[.contentType] = nil
            return (response, nil)
        }
        return (response, HTTPBody(bytes))
    }
}
