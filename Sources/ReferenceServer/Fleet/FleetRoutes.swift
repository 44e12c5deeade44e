import Foundation
import Hummingbird

/// The fleet origin: the routes under `/fleet/` that a benchmark of several client processes
/// calls, each counted in a ``FleetLedger``.
///
/// - `POST /fleet/accounts/{account}/writes`: `Authorization: Bearer fleet-token-<account>`,
///   an `Idempotency-Key` and a JSON `{"write": Int, "seq": Int}`; 201 `{"applied": true}` or,
///   for a key seen before, 200 `{"applied": false, "replayed": true}`;
/// - `GET /fleet/quota`: records an arrival, 200 `{"ok": true}`;
/// - `POST /fleet/oauth/token`: the refresh grant for the shared credential (a form body); a
///   refresh token that is not the current one answers 400 `{"error": "invalid_grant"}`;
/// - `GET /fleet/protected`: 200 with the current access token, else 401;
/// - `GET /fleet/resources/{n}` (`n` in 0...100000): about 1 KB of JSON with a fixed `ETag`,
///   304 to a matching `If-None-Match`;
/// - `POST /fleet/setup`: resets the ledger and installs the credential and quota window, 204;
/// - `GET /fleet/stats`: the ledger's ``FleetStats``.
///
/// No route logs a token.
struct FleetRoutes: Sendable {
    /// The largest resource number served.
    static let maximumResource = 100_000
    /// The `Cache-Control` of a resource.
    static let resourceCacheControl = "max-age=300"

    /// The body of a write.
    struct WriteBody: Decodable {
        let write: Int
        let seq: Int
    }

    /// The answer to a write: `replayed` is left out when the write was applied.
    struct WriteAnswer: Encodable {
        let applied: Bool
        let replayed: Bool?
    }

    /// `{"ok": true}`.
    struct OK: Encodable {
        var ok = true
    }

    /// The body of `POST /fleet/setup`.
    struct SetupBody: Decodable {
        let accessToken: String
        let refreshToken: String
        let quotaWindowSeconds: Double

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case refreshToken = "refresh_token"
            case quotaWindowSeconds = "quota_window_seconds"
        }
    }

    /// The answer of the token endpoint.
    struct TokenAnswer: Encodable {
        let accessToken: String
        let refreshToken: String
        var tokenType = "Bearer"
        var expiresIn = 3600

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case refreshToken = "refresh_token"
            case tokenType = "token_type"
            case expiresIn = "expires_in"
        }
    }

    /// The body of an OAuth error.
    struct OAuthError: Encodable {
        let error: String
    }

    /// A resource's body.
    struct Resource: Encodable {
        let id: Int
        let text: String
    }

    let fleet: FleetLedger

    /// Adds the routes to the root router, under `/fleet`.
    func register(on router: Router<ReferenceRequestContext>) {
        let group = router.group("fleet")
        group.post("accounts/{account}/writes") { request, context in
            try await write(request, account: context.parameters.get("account") ?? "")
        }
        group.get("quota") { _, _ in
            await fleet.recordQuotaCall(at: Date().timeIntervalSince1970)
            return try Response.json(OK())
        }
        group.post("oauth/token") { request, _ in try await token(request) }
        group.get("protected") { request, _ in try await protected(request) }
        group.get("resources/{n}") { request, context in
            try await resource(request, number: context.parameters.get("n") ?? "")
        }
        group.post("setup") { request, _ in
            let body = try await request.decodeJSONBody(as: SetupBody.self)
            guard body.quotaWindowSeconds.isFinite, body.quotaWindowSeconds > 0 else {
                throw APIError.validationFailed("quota_window_seconds must be a positive number of seconds")
            }
            await fleet.reset()
            await fleet.setup(accessToken: body.accessToken, refreshToken: body.refreshToken, quotaWindowSeconds: body.quotaWindowSeconds)
            return Response.bodiless(status: .noContent)
        }
        group.get("stats") { _, _ in
            let stats = await fleet.stats()
            return try Response.json(stats, headers: [.cacheControl: "no-store"])
        }
    }

    private func write(_ request: Request, account: String) async throws -> Response {
        guard let authorization = request.headers[.authorization],
              let token = AccessTokenMiddleware.bearerToken(in: authorization),
              ConstantTimeComparison.equal(Array(token.utf8), Array(fleet.accountToken(for: account).utf8)) else {
            throw APIError.unauthorized("missing or wrong bearer token for this account")
        }
        guard let key = request.headers[IdempotentWrite.keyHeader], (1...IdempotentWrite.maximumKeyLength).contains(key.count) else {
            throw APIError.invalidIdempotencyKey(maximumLength: IdempotentWrite.maximumKeyLength)
        }
        let body = try await request.decodeJSONBody(as: WriteBody.self)
        switch await fleet.record(write: body.write, seq: body.seq, account: account, idempotencyKey: key) {
        case .applied:
            return try Response.json(WriteAnswer(applied: true, replayed: nil), status: .created)
        case .replayed:
            return try Response.json(WriteAnswer(applied: false, replayed: true))
        }
    }

    private func token(_ request: Request) async throws -> Response {
        let buffer = try await request.body.collect(upTo: 16 << 10)
        let form = QueryItems(rawQuery: String(decoding: buffer.readableBytesView, as: UTF8.self).replacingOccurrences(of: "+", with: "%20"))
        guard form.first("grant_type") == "refresh_token" else { return try Self.failure("unsupported_grant_type") }
        guard let presented = form.first("refresh_token"), !presented.isEmpty else { return try Self.failure("invalid_request") }
        guard let pair = await fleet.refresh(presented: presented) else { return try Self.failure("invalid_grant") }
        return try Response.json(TokenAnswer(accessToken: pair.access, refreshToken: pair.refresh), headers: [.cacheControl: "no-store"])
    }

    private static func failure(_ error: String) throws -> Response {
        try Response.json(OAuthError(error: error), status: .badRequest, headers: [.cacheControl: "no-store"])
    }

    private func protected(_ request: Request) async throws -> Response {
        let token = request.headers[.authorization].flatMap(AccessTokenMiddleware.bearerToken(in:))
        var ok = false
        if let token { ok = await fleet.isCurrentAccessToken(token) }
        await fleet.protectedCall(ok: ok)
        guard ok else {
            throw APIError(
                status: .unauthorized, code: "invalid_token", message: "the access token is not the current one",
                headers: [.wwwAuthenticate: APIError.expiredTokenChallenge]
            )
        }
        return try Response.json(OK())
    }

    private func resource(_ request: Request, number text: String) async throws -> Response {
        guard let number = Int(text), (0...Self.maximumResource).contains(number) else {
            throw APIError.notFound("no fleet resource \(text)")
        }
        let etag = "\"fleet-\(number)-v1\""
        let headers: HTTPFields = [.eTag: etag, .cacheControl: Self.resourceCacheControl]
        let candidates = request.headers[values: .ifNoneMatch].flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        if candidates.contains(etag) || candidates.contains("W/" + etag) || candidates.contains("*") {
            await fleet.recordRevalidation()
            return Response.bodiless(status: .notModified, headers: headers)
        }
        await fleet.recordFullResponse()
        return try Response.json(Resource(id: number, text: Self.filler(number)), headers: headers)
    }

    /// About 1000 characters of text that depend only on `number`.
    static func filler(_ number: Int) -> String {
        let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]
        var text = ""
        var index = number % words.count
        while text.utf8.count < 1000 {
            text += words[index] + "-\(number) "
            index = (index * 7 + 3) % words.count
        }
        return String(text.prefix(1000))
    }
}
