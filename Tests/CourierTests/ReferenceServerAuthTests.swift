import ClarityOpenAPI
import Foundation
import RadarCore
import ReferenceServer
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The reference server's CLARITY auth API and per-user radars, over real HTTP.
@Suite("Reference server: accounts and tokens")
struct ReferenceServerAuthTests {
    @Test("registering answers 200 with the document's TokenResponse, and /me with the new access token shows the user")
    func registeringThenAskingForMeReturnsTheNewUser() async throws {
        try await ServerUnderTest.run { server in
            let registered = try await server.send("POST", "/api/v1/auth/register", json: registerBody(email: "Ada@Example.com", password: "analytical-engine", displayName: "Ada"))
            #expect(registered.status == 200)
            #expect(Set((try JSONSerialization.jsonObject(with: registered.data) as? [String: Any] ?? [:]).keys) == ["access_token", "refresh_token", "token_type", "expires_in", "scope"])
            let tokens = try registered.decode(WireTokens.self)
            #expect(tokens.tokenType == "bearer")
            #expect(tokens.expiresIn == 900)
            #expect(tokens.accessToken.count == 43 && tokens.refreshToken.count == 43)

            let me = try await server.send("GET", "/api/v1/auth/me", token: tokens.accessToken)
            #expect(me.status == 200)
            let user = try me.decode(WireUser.self)
            #expect(user.email == "ada@example.com")
            #expect(user.displayName == "Ada")
            #expect(user.emailVerified == false)
            #expect(user.userId.hasPrefix("u_"))
        }
    }

    @Test("login with a wrong password or an unknown email is 401 invalid_credentials, with the same message")
    func loginWithWrongCredentialsIsInvalidCredentials() async throws {
        try await ServerUnderTest.run { server in
            let demo = ReferenceServerConfiguration()
            let good = try await server.send("POST", "/api/v1/auth/login", json: loginBody(email: demo.demoEmail, password: demo.demoPassword))
            #expect(good.status == 200)
            let signedIn = try good.decode(WireTokens.self)
            #expect(try await server.send("GET", "/api/v1/auth/me", token: signedIn.accessToken).decode(WireUser.self).userId == "demo-user")

            let wrongPassword = try await server.send("POST", "/api/v1/auth/login", json: loginBody(email: demo.demoEmail, password: "not-the-password"))
            let unknownEmail = try await server.send("POST", "/api/v1/auth/login", json: loginBody(email: "nobody@example.com", password: "whatever1"))
            for reply in [wrongPassword, unknownEmail] {
                #expect(reply.status == 401)
                #expect(reply.header("WWW-Authenticate") == "Bearer")
                #expect(try reply.errorBody().code == "invalid_credentials")
            }
            #expect(try wrongPassword.errorBody().message == unknownEmail.errorBody().message)
        }
    }

    @Test("registering an email that is taken, in any case, is 409 email_taken")
    func registeringATakenEmailIsAConflict() async throws {
        try await ServerUnderTest.run { server in
            let duplicate = try await server.send("POST", "/api/v1/auth/register", json: registerBody(email: "DEMO@courier.dev", password: "another-password"))
            #expect(duplicate.status == 409)
            #expect(try duplicate.errorBody().code == "email_taken")
        }
    }

    @Test("registration rejects a short password and an email without @ with 422 validation_failed")
    func registrationValidatesEmailAndPassword() async throws {
        try await ServerUnderTest.run { server in
            let shortPassword = try await server.send("POST", "/api/v1/auth/register", json: registerBody(email: "a@b.c", password: "short"))
            let noAt = try await server.send("POST", "/api/v1/auth/register", json: registerBody(email: "nobody.example.com", password: "long-enough"))
            for reply in [shortPassword, noAt] {
                #expect(reply.status == 422)
                #expect(try reply.errorBody().code == "validation_failed")
            }
        }
    }

    @Test("refresh rotates the token pair; reusing a rotated refresh token is 401 and revokes its successor")
    func reusingARotatedRefreshTokenRevokesTheFamily() async throws {
        try await ServerUnderTest.run { server in
            let first = try await server.server.issueTokens(email: "demo@courier.dev")
            let refreshed = try await server.send("POST", "/api/v1/auth/refresh", json: RefreshBody(refreshToken: first.refreshToken))
            #expect(refreshed.status == 200)
            let second = try refreshed.decode(WireTokens.self)
            #expect(second.refreshToken != first.refreshToken)
            #expect(second.accessToken != first.accessToken)
            #expect(try await server.send("GET", "/api/v1/auth/me", token: second.accessToken).status == 200)

            let reuse = try await server.send("POST", "/api/v1/auth/refresh", json: RefreshBody(refreshToken: first.refreshToken))
            #expect(reuse.status == 401)
            #expect(try reuse.errorBody().code == "invalid_refresh_token")

            let successor = try await server.send("POST", "/api/v1/auth/refresh", json: RefreshBody(refreshToken: second.refreshToken))
            #expect(successor.status == 401)
            #expect(try successor.errorBody().code == "invalid_refresh_token")
        }
    }

    @Test("an access token past its lifetime is 401 token_expired with error=\"invalid_token\"; refresh still works")
    func anExpiredAccessTokenIsTokenExpired() async throws {
        try await ServerUnderTest.run { server in
            let longLived = try await server.server.issueTokens(email: "demo@courier.dev")
            // A lifetime of a nanosecond is over before any request can use the token: no
            // need to wait for it to pass.
            await server.server.setAccessTokenLifetime(.nanoseconds(1))
            let tokens = try await server.server.issueTokens(email: "demo@courier.dev")
            #expect(tokens.expiresIn == 1, "a sub-second lifetime is rounded up")

            let expired = try await server.send("GET", "/api/radars", token: tokens.accessToken)
            #expect(expired.status == 401)
            #expect(try expired.errorBody().code == "token_expired")
            #expect(expired.header("WWW-Authenticate") == #"Bearer error="invalid_token""#)
            let stillValid = try await server.send("GET", "/api/radars", token: longLived.accessToken)
            #expect(stillValid.status == 200, "a new lifetime applies only to tokens issued after it")

            let refreshed = try await server.send("POST", "/api/v1/auth/refresh", json: RefreshBody(refreshToken: tokens.refreshToken))
            #expect(refreshed.status == 200)
        }
    }

    @Test("expireAccessTokens expires every valid access token at once, and revokeRefreshTokens every refresh token")
    func testControlsExpireAndRevokeTokens() async throws {
        try await ServerUnderTest.run { server in
            let tokens = try await server.server.issueTokens(email: "demo@courier.dev")
            await server.server.expireAccessTokens()
            let expired = try await server.send("GET", "/api/v1/auth/me", token: tokens.accessToken)
            #expect(try expired.errorBody().code == "token_expired")

            await server.server.revokeRefreshTokens()
            let refresh = try await server.send("POST", "/api/v1/auth/refresh", json: RefreshBody(refreshToken: tokens.refreshToken))
            #expect(refresh.status == 401)
            #expect(try refresh.errorBody().code == "invalid_refresh_token")
            await #expect(throws: ReferenceServer.UnknownAccountError.self) {
                _ = try await server.server.issueTokens(email: "nobody@example.com")
            }
        }
    }

    @Test("a missing or unknown token is 401 unauthorized with WWW-Authenticate: Bearer")
    func unknownTokensAreUnauthorized() async throws {
        try await ServerUnderTest.run { server in
            for token in [nil, "made-up-token"] {
                let reply = try await server.send("GET", "/api/v1/auth/me", token: token)
                #expect(reply.status == 401)
                #expect(reply.header("WWW-Authenticate") == "Bearer")
                #expect(try reply.errorBody().code == "unauthorized")
            }
        }
    }

    @Test("logout answers 200 with a message and revokes both the access token used and the refresh token given")
    func logoutRevokesBothTokens() async throws {
        try await ServerUnderTest.run { server in
            let tokens = try await server.server.issueTokens(email: "demo@courier.dev")
            let logout = try await server.send("POST", "/api/v1/auth/logout", json: RefreshBody(refreshToken: tokens.refreshToken), token: tokens.accessToken)
            #expect(logout.status == 200)
            #expect(try logout.decode(Components.Schemas.LogoutResponse.self).message.isEmpty == false)
            let me = try await server.send("GET", "/api/v1/auth/me", token: tokens.accessToken)
            #expect(try me.errorBody().code == "unauthorized")
            let refresh = try await server.send("POST", "/api/v1/auth/refresh", json: RefreshBody(refreshToken: tokens.refreshToken))
            #expect(try refresh.errorBody().code == "invalid_refresh_token")
        }
    }

    @Test("logout with no body, as CLARITY's checklist sends it, ends that sign-in and no other")
    func logoutWithoutABodyEndsTheSignIn() async throws {
        try await ServerUnderTest.run { server in
            let signIn = try await server.server.issueTokens(email: "demo@courier.dev")
            let otherDevice = try await server.server.issueTokens(email: "demo@courier.dev")
            let logout = try await server.send("POST", "/api/v1/auth/logout", token: signIn.accessToken)
            #expect(logout.status == 200)
            #expect(try await server.send("GET", "/api/v1/auth/me", token: signIn.accessToken).errorBody().code == "unauthorized")
            let refresh = try await server.send("POST", "/api/v1/auth/refresh", json: RefreshBody(refreshToken: signIn.refreshToken))
            #expect(try refresh.errorBody().code == "invalid_refresh_token")
            #expect(try await server.send("GET", "/api/v1/auth/me", token: otherDevice.accessToken).status == 200, "another sign-in goes on")
        }
    }

    @Test("the verification code of a new account verifies its email once; a used code is 400 invalid_token")
    func verifyingAnEmailMarksTheUserVerified() async throws {
        try await ServerUnderTest.run { server in
            let registered = try await server.send("POST", "/api/v1/auth/register", json: registerBody(email: "grace@example.com", password: "compiler-1952"))
            let tokens = try registered.decode(WireTokens.self)
            let verificationToken = try #require(await server.server.verificationToken(email: "grace@example.com"))

            let verified = try await server.send("POST", "/api/v1/auth/confirm-email", json: Components.Schemas.EmailConfirmationRequest(code: verificationToken, email: "grace@example.com"))
            #expect(verified.status == 200)
            #expect(try verified.decode(Components.Schemas.StatusResponse.self).status == "email_confirmed")
            #expect(try await server.send("GET", "/api/v1/auth/me", token: tokens.accessToken).decode(WireUser.self).emailVerified)
            #expect(await server.server.verificationToken(email: "grace@example.com") == nil)

            let again = try await server.send("POST", "/api/v1/auth/confirm-email", json: Components.Schemas.EmailConfirmationRequest(code: verificationToken, email: "grace@example.com"))
            #expect(again.status == 400)
            #expect(try again.errorBody().code == "invalid_token")
        }
    }

    @Test("radars are per user: another user gets 404 for a private radar but sees a public one, and cannot change it")
    func radarsArePerUser() async throws {
        try await ServerUnderTest.run { server in
            let alice = try await server.register("alice@example.com")
            let bob = try await server.register("bob@example.com")
            let secret = try await server.send("POST", "/api/radars", json: CreateRadarRequest(topic: "Alice's secret topic"), token: alice).decode(Radar.self)
            let open = try await server.send("POST", "/api/radars", json: CreateRadarRequest(topic: "Alice's open topic", isPublic: true), token: alice).decode(Radar.self)
            #expect(secret.userId == open.userId && secret.userId != "demo-user")

            #expect(try await server.send("GET", "/api/radars/\(secret.id)", token: bob).status == 404)
            #expect(try await server.send("GET", "/api/radars/\(secret.id)/opinions", token: bob).status == 404)
            #expect(try await server.send("GET", "/api/radars/\(open.id)", token: bob).status == 200)
            #expect(try await server.send("GET", "/api/radars/\(open.id)/opinions", token: bob).status == 200)
            #expect(try await server.send("GET", "/api/radars/\(open.id)/trends", token: bob).status == 200)
            #expect(try await server.send("POST", "/api/radars/\(open.id)/refresh", token: bob).status == 404)
            #expect(try await server.send("DELETE", "/api/radars/\(open.id)", token: bob).status == 404)

            let bobsList = try await server.send("GET", "/api/radars?limit=100", token: bob).decode([Radar].self)
            #expect(bobsList.contains { $0.id == open.id })
            #expect(!bobsList.contains { $0.id == secret.id })
            let alicesList = try await server.send("GET", "/api/radars?limit=100", token: alice).decode([Radar].self)
            #expect(alicesList.contains { $0.id == secret.id })
            #expect(try await server.send("DELETE", "/api/radars/\(secret.id)", token: alice).status == 200)
        }
    }
}

// MARK: - A running server and an HTTP client for these tests

/// A reference server on an ephemeral loopback port and a `URLSession` that talks to it.
///
/// Shared by the reference server's test files; it uses plain URLSession, not Courier's client.
struct ServerUnderTest {
    /// The server, for its in-process controls.
    let server: ReferenceServer
    /// Where it listens.
    let baseURL: URL
    /// An ephemeral session, invalidated when the test ends.
    let session: URLSession

    /// A reply as the tests inspect it.
    struct Reply: Sendable {
        let status: Int
        let headers: [String: String]
        let data: Data

        /// A header's value, matched case-insensitively.
        func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }

        /// The body decoded as JSON with ISO 8601 dates.
        func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(type, from: data)
        }

        /// The body decoded as the API's JSON error, in whichever shape its path answers with:
        /// `{code, message}` (Radar, intervals), or CLARITY's `ErrorResponse {error, code}`, its
        /// problem nested in `detail` (auth routes), or its validation list (422).
        func errorBody() throws -> APIErrorBody {
            if let plain = try? decode(APIErrorBody.self) { return plain }
            let shapes = try decode(ClarityErrorShapes.self)
            if let problem = shapes.problem { return APIErrorBody(message: problem.detail, code: problem.type) }
            if let first = shapes.validation?.first { return APIErrorBody(message: first.msg, code: first.type) }
            if let error = shapes.error { return APIErrorBody(message: error, code: shapes.code) }
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not an error body: \(String(decoding: data, as: UTF8.self))"))
        }

        /// CLARITY's three error shapes, read side by side.
        private struct ClarityErrorShapes: Decodable {
            struct Problem: Decodable { let type: String; let detail: String }
            struct Validation: Decodable { let msg: String; let type: String }
            let error: String?
            let code: String?
            let problem: Problem?
            let validation: [Validation]?

            enum CodingKeys: String, CodingKey { case error, code, detail }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                error = try? container.decode(String.self, forKey: .error)
                code = try? container.decode(String.self, forKey: .code)
                problem = try? container.decode(Problem.self, forKey: .detail)
                validation = try? container.decode([Validation].self, forKey: .detail)
            }
        }
    }

    /// Starts a server, runs `body`, and stops the server whatever happens.
    ///
    /// The server has its `/debug` routes on and cheap password hashing, whatever
    /// `configuration` says (see ``ReferenceServerConfiguration/preparedForTests()``).
    static func run(
        _ configuration: ReferenceServerConfiguration = ReferenceServerConfiguration(),
        _ body: (ServerUnderTest) async throws -> Void
    ) async throws {
        try await runAsConfigured(configuration.preparedForTests(), body)
    }

    /// Starts a server with exactly `configuration`, runs `body`, and stops the server whatever happens.
    static func runAsConfigured(
        _ configuration: ReferenceServerConfiguration,
        _ body: (ServerUnderTest) async throws -> Void
    ) async throws {
        let server = ReferenceServer(configuration: configuration)
        let baseURL = try await server.start()
        let session = URLSession(configuration: .ephemeral)
        let harness = ServerUnderTest(server: server, baseURL: baseURL, session: session)
        do {
            try await body(harness)
            session.invalidateAndCancel()
            await server.stop()
        } catch {
            session.invalidateAndCancel()
            await server.stop()
            throw error
        }
    }

    /// Sends a request with an optional raw body.
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - pathAndQuery: The path, with a query if any, such as `/api/radars?limit=5`.
    ///   - body: The body, sent as `application/json`; `nil` for none.
    ///   - token: An access token for `Authorization: Bearer`; `nil` for none.
    ///   - headers: Extra headers.
    func send(
        _ method: String,
        _ pathAndQuery: String,
        body: Data? = nil,
        token: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> Reply {
        let url = try #require(URL(string: baseURL.absoluteString + pathAndQuery))
        var request = URLRequest(url: url, timeoutInterval: 5)
        request.httpMethod = method
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let token {
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        }
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for case (let name as String, let value as String) in http.allHeaderFields {
            fields[name] = value
        }
        return Reply(status: http.statusCode, headers: fields, data: data)
    }

    /// Sends a request whose body is `value` as JSON.
    func send(
        _ method: String,
        _ pathAndQuery: String,
        json value: some Encodable,
        token: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> Reply {
        try await send(method, pathAndQuery, body: JSONEncoder().encode(value), token: token, headers: headers)
    }

    /// Registers an account over HTTP and returns its access token.
    func register(_ email: String) async throws -> String {
        let reply = try await send("POST", "/api/v1/auth/register", json: registerBody(email: email, password: "password-\(email)"))
        #expect(reply.status == 200)
        return try reply.decode(WireTokens.self).accessToken
    }

    /// An access token of the demo account.
    func demoAccessToken() async throws -> String {
        try await server.issueTokens(email: ReferenceServerConfiguration().demoEmail).accessToken
    }
}
