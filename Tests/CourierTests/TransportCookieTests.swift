import Courier
import Foundation
import HTTPTypes
import Testing

/// Cookies are the caller's on every transport: a `Cookie` field goes out as set, and no
/// engine keeps a `Set-Cookie` to add to later requests (URLSession would, for an ephemeral
/// session too, across every account that uses the client).
@Suite("No transport keeps or adds cookies by itself")
struct TransportCookieTests {
    private struct Echo: Decodable { let cookie: String? }

    private func privateEcho(_ base: URL, cookie: String? = nil) -> HTTPRequest {
        var request = HTTPRequest(method: .get, scheme: "http", authority: "\(base.host!):\(base.port!)", path: "/debug/private")
        if let cookie { request.headerFields[.cookie] = cookie }
        return request
    }

    private func echoedCookie(_ transport: any Transport, _ request: HTTPRequest) async throws -> String? {
        let (head, body) = try await transport.send(request, body: nil, context: RequestContext(endpoint: "test"))
        // The route sets a cookie every time; it comes back in the head for the caller.
        #expect(head.headerFields[.setCookie] == "debug=1")
        return try JSONDecoder().decode(Echo.self, from: try await body?.collect(upTo: 1 << 20) ?? Data()).cookie
    }

    @Test(arguments: TransportKind.allCases)
    func aCookieTheServerSetIsNotSentBack(_ kind: TransportKind) async throws {
        try await withReferenceServer { url in
            try await withTransport(kind) { transport in
                let first = try await echoedCookie(transport, privateEcho(url))
                let second = try await echoedCookie(transport, privateEcho(url))
                #expect(first == nil)
                #expect(second == nil)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aCookieTheCallerSetsGoesOutAsSet(_ kind: TransportKind) async throws {
        try await withReferenceServer { url in
            try await withTransport(kind) { transport in
                _ = try await echoedCookie(transport, privateEcho(url))
                let sent = try await echoedCookie(transport, privateEcho(url, cookie: "session=abc"))
                #expect(sent == "session=abc")
            }
        }
    }
}
