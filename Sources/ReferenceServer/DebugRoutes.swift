import Foundation
import Hummingbird
import RadarCore

/// Diagnostic routes under `/debug`, without authentication, for exercising clients:
/// fixed statuses, odd bodies, header and query mirrors, redirects.
///
/// The transfer-oriented routes (slow, bytes, echo, truncated) are in ``DebugTransferRoutes``.
/// Client tests depend on the exact shapes here; change them only together with those tests.
struct DebugRoutes: Sendable {
    /// A body that is valid JSON but has the wrong types at `items[1]`.
    static let malformedJSONBody = #"{"items": [{"id": 1, "name": "ok"}, {"id": "two", "name": 3}]}"#
    /// A body that is not valid JSON: it stops part-way.
    static let invalidJSONBody = #"{"items": ["#

    /// Adds the routes to a group mounted at `/debug`.
    func register<Context: RequestContext>(on debug: RouterGroup<Context>) {
        debug.get("ping") { _, _ in try Response.json(["ok": true]) }
        debug.get("headers") { request, _ in try Self.headers(of: request) }
        debug.get("query") { request, _ in try Self.query(of: request) }
        debug.get("status/{code}") { _, context in try Self.status(context.parameters.get("code")) }
        debug.get("no-content") { _, _ in Response.bodiless(status: .noContent) }
        debug.get("malformed-json") { _, _ in Response.jsonText(Array(Self.malformedJSONBody.utf8)) }
        debug.get("invalid-json") { _, _ in Response.jsonText(Array(Self.invalidJSONBody.utf8)) }
        debug.post("validate") { _, _ -> Response in
            throw APIError.validationFailed("name must not be empty")
        }
        debug.get("error") { _, _ -> Response in
            throw APIError.internalFailure("internal failure for testing")
        }
        debug.get("redirect") { request, _ in try Self.redirect(request) }
        debug.get("private") { request, _ in try Self.privateEcho(request) }
        debug.get("basic-auth") { request, _ in try Self.basicChallenge(request) }
        debug.post("basic-auth") { request, _ in try Self.basicChallenge(request) }
        debug.post("redirect") { request, _ in try Self.redirect(request) }
        debug.put("redirect") { request, _ in try Self.redirect(request) }
    }

    /// The request's headers as a JSON object: lowercased names to values, duplicates joined with `", "`.
    ///
    /// HTTP/1.1's `Host` arrives as the request's authority, not as a header field; it is listed as `host`.
    private static func headers(of request: Request) throws -> Response {
        var mirrored: [String: String] = [:]
        if let authority = request.head.authority {
            mirrored["host"] = authority
        }
        for field in request.headers {
            let name = field.name.canonicalName
            if let existing = mirrored[name] {
                mirrored[name] = existing + ", " + field.value
            } else {
                mirrored[name] = field.value
            }
        }
        return try Response.json(mirrored)
    }

    /// The raw query and its decoded pairs.
    private struct QueryMirror: Encodable {
        let raw: String
        let items: [[String]]
    }

    private static func query(of request: Request) throws -> Response {
        let raw = request.uri.query ?? ""
        let items = QueryItems(rawQuery: raw).pairs.map { [$0.name, $0.value] }
        return try Response.json(QueryMirror(raw: raw, items: items))
    }

    /// Answers with the status in the path: a JSON body, except for 204 and 304 which have none.
    private static func status(_ codeText: String?) throws -> Response {
        guard let codeText, let code = Int(codeText), (200...599).contains(code) else {
            throw APIError.validationFailed("status code must be an integer from 200 to 599, got \"\(codeText ?? "")\"")
        }
        let status = HTTPResponse.Status(code: code)
        var headers: HTTPFields = [:]
        if code == 429 || code == 503 {
            headers[.retryAfter] = "2"
        }
        if code == 204 || code == 304 {
            return Response.bodiless(status: status, headers: headers)
        }
        return try Response.json(APIErrorBody(message: "status \(code)", code: "status_\(code)"), status: status, headers: headers)
    }

    /// `GET /debug/private`: the request's `Authorization` and `Cookie` (or `null`) as JSON,
    /// marked `private, max-age=60`: a per-user answer a private cache may keep, for checking
    /// that it keeps users apart. Answers `Set-Cookie: debug=1` too, which a cache must not store.
    private static func privateEcho(_ request: Request) throws -> Response {
        let seen = ["authorization": request.headers[.authorization], "cookie": request.headers[.cookie]]
        let body = try JSONEncoder().encode(seen)
        return Response(
            status: .ok,
            headers: [.contentType: "application/json", .cacheControl: "private, max-age=60", .setCookie: "debug=1"],
            body: .init(byteBuffer: ByteBuffer(bytes: body))
        )
    }

    /// `GET` or `POST /debug/basic-auth?size=N` (a `POST`'s body unread): 401 with
    /// `WWW-Authenticate: Basic realm="courier-debug"`,
    /// as an ordinary origin guards a resource with HTTP authentication, and a JSON error body
    /// whose message is `size` characters long (a few by default). No credential is ever
    /// accepted: the route checks how a client hands on such an answer.
    private static func basicChallenge(_ request: Request) throws -> Response {
        let size = try QueryItems(rawQuery: request.uri.query).integer("size", default: 7, in: 0...(16 << 20))
        return try Response.json(
            APIErrorBody(message: String(repeating: "x", count: size), code: "unauthorized"),
            status: .unauthorized,
            headers: [.wwwAuthenticate: #"Basic realm="courier-debug""#]
        )
    }

    /// `GET|POST|PUT /debug/redirect?to=<url or path>&status=<301|302|303|307|308>`: redirects
    /// there with the status (302 by default); the request's body is not read.
    private static func redirect(_ request: Request) throws -> Response {
        let query = QueryItems(rawQuery: request.uri.query)
        guard let target = query.first("to"), !target.isEmpty else {
            throw APIError.validationFailed("to must be a URL or a path")
        }
        let code = try query.integer("status", default: 302, in: 301...308)
        guard [301, 302, 303, 307, 308].contains(code) else { throw APIError.validationFailed("status must be 301, 302, 303, 307 or 308") }
        return Response(status: HTTPResponse.Status(code: code), headers: [.location: target])
    }
}
