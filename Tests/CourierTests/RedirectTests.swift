@testable import Courier
import CourierTesting
import Foundation
import HTTPTypes
import ReferenceServer
import Testing

@Suite("Redirects")
struct RedirectTests {
    @Test(arguments: TransportKind.allCases)
    func crossOriginRedirectDropsAuthorizationAndCookies(kind: TransportKind) async throws {
        try await withReferenceServer { other in
            try await withClient(kind, configure: { $0.middleware.append(BearerTokenMiddleware(token: "secret-token")) }) { client, _ in
                let target = other.absoluteString + "/debug/headers"
                let request = Request<[String: String]>(
                    path: "/debug/redirect",
                    query: [URLQueryItem(name: "to", value: target)],
                    headers: [.cookie: "sid=abc"]
                )
                let response = try await client.send(request)
                #expect(response.value["authorization"] == nil)
                #expect(response.value["cookie"] == nil)
                #expect(response.value["x-request-id"] != nil, "other headers still travel")
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func sameOriginRedirectKeepsAuthorization(kind: TransportKind) async throws {
        try await withClient(kind, configure: { $0.middleware.append(BearerTokenMiddleware(token: "secret-token")) }) { client, _ in
            let request = Request<[String: String]>(path: "/debug/redirect", query: [URLQueryItem(name: "to", value: "/debug/headers")])
            let headers = try await client.value(for: request)
            #expect(headers["authorization"] == "Bearer secret-token")
        }
    }

    @Test func seeOtherTurnsAPostIntoAGetWithoutBody() throws {
        let request = HTTPRequest(method: .post, scheme: "https", authority: "a.test", path: "/form", headerFields: [.contentType: "application/json"])
        let response = HTTPResponse(status: .seeOther, headerFields: [.location: "/done?x=1"])
        let next = try #require(RedirectStage.followUp(to: request, body: HTTPBody("{}"), response: response, policy: .default))
        #expect(next.request.method == .get)
        #expect(next.request.path == "/done?x=1")
        #expect(next.request.headerFields[.contentType] == nil)
        #expect(next.body == nil)
    }

    @Test func temporaryRedirectKeepsMethodButNotASingleUseBody() throws {
        let request = HTTPRequest(method: .put, scheme: "https", authority: "a.test", path: "/x")
        let response = HTTPResponse(status: .temporaryRedirect, headerFields: [.location: "https://a.test/y"])
        let replayable = try #require(RedirectStage.followUp(to: request, body: HTTPBody("data"), response: response, policy: .default))
        #expect(replayable.request.method == .put)
        #expect(replayable.body != nil)
        let stream = HTTPBody(AsyncStream<Data> { $0.finish() })
        #expect(RedirectStage.followUp(to: request, body: stream, response: response, policy: .default) == nil)
    }

    @Test func httpsToHTTPIsNotFollowedByDefault() {
        let request = HTTPRequest(method: .get, scheme: "https", authority: "a.test", path: "/x")
        let response = HTTPResponse(status: .found, headerFields: [.location: "http://a.test/x"])
        #expect(RedirectStage.followUp(to: request, body: nil, response: response, policy: .default) == nil)
    }

    @Test func aRedirectLoopIsTooManyRedirects() async throws {
        let transport = MockTransport(always: MockResponse(status: .found, headers: [.location: "/again"]))
        let configuration = ClientConfiguration(baseURL: URL(string: "https://a.test")!, redirectPolicy: RedirectPolicy(maxRedirects: 3))
        let client = APIClient(configuration: configuration, transport: transport)
        let error = await courierError { _ = try await client.send(Request<Data>(path: "/start")) }
        #expect(error?.code == .tooManyRedirects)
        #expect(error?.status == .found)
        #expect(transport.requests.count == 4)
    }
}
