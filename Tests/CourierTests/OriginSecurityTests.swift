@testable import Courier
import CourierTesting
import Foundation
import HTTPTypes
import ReferenceServer
import Testing

/// Credentials and bodies stay with the origins a client is made for: redirects, absolute
/// URLs and signing middleware, on every transport.
@Suite("Credentials and bodies stay with their origin")
struct OriginSecurityTests {
    // MARK: - Redirect decisions

    @Test(arguments: [HTTPResponse.Status.temporaryRedirect, .permanentRedirect])
    func aRedirectThatWouldCarryABodyToAnotherOriginIsNotFollowed(status: HTTPResponse.Status) throws {
        let login = HTTPRequest(method: .post, scheme: "https", authority: "a.test", path: "/login", headerFields: [.contentType: "application/json"])
        let away = HTTPResponse(status: status, headerFields: [.location: "https://b.test/steal"])
        #expect(RedirectStage.followUp(to: login, body: HTTPBody(#"{"password":"x"}"#), response: away, policy: .default) == nil)
        let home = HTTPResponse(status: status, headerFields: [.location: "https://A.test:443/login-here"])
        let followed = try #require(RedirectStage.followUp(to: login, body: HTTPBody(#"{"password":"x"}"#), response: home, policy: .default))
        #expect(followed.request.method == .post, "same origin: method and body are kept")
        #expect(followed.body != nil)
    }

    @Test func aPutRedirectedToAnotherOriginBy302IsNotFollowed() {
        let put = HTTPRequest(method: .put, scheme: "https", authority: "a.test", path: "/doc")
        let response = HTTPResponse(status: .found, headerFields: [.location: "https://b.test/doc"])
        #expect(RedirectStage.followUp(to: put, body: HTTPBody("data"), response: response, policy: .default) == nil)
    }

    @Test func aSeeOtherToAnotherOriginBecomesAGetWithoutBodyOrCredentials() throws {
        let post = HTTPRequest(
            method: .post, scheme: "https", authority: "a.test", path: "/form",
            headerFields: [.authorization: "Bearer t", .cookie: "sid=1", .contentType: "application/json"]
        )
        let response = HTTPResponse(status: .seeOther, headerFields: [.location: "https://b.test/done"])
        let next = try #require(RedirectStage.followUp(to: post, body: HTTPBody("{}"), response: response, policy: .default))
        #expect(next.request.method == .get)
        #expect(next.body == nil)
        #expect(next.request.headerFields[.authorization] == nil)
        #expect(next.request.headerFields[.cookie] == nil)
    }

    @Test func originsCompareSchemeHostAndPortAlone() throws {
        let url = try #require(URL(string: "https://API.example.com:443/v1"))
        #expect(Origin(url) == Origin(HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: "/")))
        #expect(Origin(url)?.description == "https://api.example.com")
        #expect(Origin(HTTPRequest(method: .get, scheme: "http", authority: "api.example.com", path: "/")) != Origin(url))
        #expect(Origin(HTTPRequest(method: .get, scheme: "https", authority: "api.example.com:8443", path: "/")) != Origin(url))
        #expect(Origin(HTTPRequest(method: .get, scheme: "https", authority: "user@api.example.com", path: "/")) == Origin(url))
        let v6 = Origin(HTTPRequest(method: .get, scheme: "http", authority: "[::1]:8080", path: "/"))
        #expect(v6?.host == "::1")
        #expect(v6?.port == 8080)
        #expect(v6?.description == "http://[::1]:8080")
        #expect(v6?.isLoopback == true)
        #expect(Origin(scheme: "http", host: "127.0.0.1", port: 80).isLoopback)
        #expect(!Origin(scheme: "http", host: "127.0.0.1.example.com", port: 80).isLoopback)
        #expect(!Origin(scheme: "http", host: "10.0.0.1", port: 80).isLoopback)
    }

    @Test func aContextMadeByAClientSignsOnlyItsOrigins() throws {
        let scope = CredentialScope(baseURL: try #require(URL(string: "https://api.example.com/v1")), additional: [try #require(URL(string: "https://uploads.example.com"))])
        let context = RequestContext(endpoint: "t", options: RequestOptions(), deadline: nil, transportDeadline: nil, credentialScope: scope)
        func request(_ scheme: String, _ authority: String) -> HTTPRequest { HTTPRequest(method: .get, scheme: scheme, authority: authority, path: "/") }
        #expect(context.mayCarryCredentials(request("https", "api.example.com")))
        #expect(context.mayCarryCredentials(request("https", "API.example.com:443")))
        #expect(context.mayCarryCredentials(request("https", "uploads.example.com")))
        #expect(!context.mayCarryCredentials(request("http", "api.example.com")))
        #expect(!context.mayCarryCredentials(request("https", "evil.example")))
        #expect(RequestContext(endpoint: "t").mayCarryCredentials(request("https", "evil.example")), "no client, no scope")
    }

    // MARK: - Against servers, on both transports

    @Test(arguments: TransportKind.allCases)
    func aSignInRedirectedToAnotherOriginSendsItNothing(kind: TransportKind) async throws {
        try await withRunningServer { other, otherURL in
            try await withClient(kind, configure: { $0.retryPolicy = .none }) { client, _ in
                let target = otherURL.absoluteString + "/steal?session=abc"
                let signIn = Request<Data>(
                    method: .post, path: "/debug/redirect",
                    query: [URLQueryItem(name: "status", value: "307"), URLQueryItem(name: "to", value: target)],
                    body: .json(["email": "demo@courier.dev", "password": "courier-demo"])
                )
                let error = await courierError { _ = try await client.send(signIn) }
                #expect(error?.code == .redirectNotFollowed)
                #expect(error?.status?.code == 307)
                #expect(error?.redirectLocation == otherURL.absoluteString + "/steal?session=\(Redaction.placeholder)")
                #expect(await other.requestCount(path: "/steal") == 0, "no byte of the body reached the other origin")
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aCrossOriginRedirectOfAGetCarriesNoCredentials(kind: TransportKind) async throws {
        let session = AuthSession(authenticator: CountingAuthenticator())
        try await session.signIn(Credential(accessToken: "session-token"))
        try await withReferenceServer { other in
            try await withClient(kind, configure: {
                $0.auth = session
                $0.networkMiddleware.append(BearerTokenMiddleware(token: "network-token"))
            }) { client, _ in
                let request = Request<[String: String]>(
                    path: "/debug/redirect",
                    query: [URLQueryItem(name: "to", value: other.absoluteString + "/debug/headers")],
                    headers: [.cookie: "sid=abc"]
                )
                let headers = try await client.value(for: request)
                #expect(headers["authorization"] == nil, "neither the session's token nor the network middleware's")
                #expect(headers["cookie"] == nil)
                #expect(headers["x-request-id"] != nil, "other headers still travel")
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aRequestToAnotherOriginIsSentUnsignedUnlessTheAppListsIt(kind: TransportKind) async throws {
        try await withReferenceServer { other in
            let elsewhere = Request<[String: String]>(path: other.absoluteString + "/debug/headers")
            try await withClient(kind, configure: { $0.middleware.append(BearerTokenMiddleware(token: "app-token")) }) { client, _ in
                let away = try await client.value(for: elsewhere)
                let home = try await client.value(for: Request<[String: String]>(path: "/debug/headers"))
                #expect(away["authorization"] == nil)
                #expect(home["authorization"] == "Bearer app-token")
            }
            let session = AuthSession(authenticator: CountingAuthenticator())
            try await session.signIn(Credential(accessToken: "session-token"))
            try await withClient(kind, configure: { $0.auth = session }) { client, _ in
                let away = try await client.value(for: elsewhere)
                #expect(away["authorization"] == nil)
            }
            try await withClient(kind, configure: { $0.auth = session; $0.credentialOrigins = [other] }) { client, _ in
                let listed = try await client.value(for: elsewhere)
                #expect(listed["authorization"] == "Bearer session-token", "listed origins are signed")
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aSameOriginTemporaryRedirectKeepsMethodAndBody(kind: TransportKind) async throws {
        try await withClient(kind) { client, _ in
            let request = Request<Data>(
                method: .post, path: "/debug/redirect",
                query: [URLQueryItem(name: "status", value: "307"), URLQueryItem(name: "to", value: "/debug/echo")],
                body: .data(Data("kept".utf8), contentType: "text/plain")
            )
            let response = try await client.send(request)
            #expect(String(decoding: response.value, as: UTF8.self) == "kept")
        }
    }
}
