import AsyncHTTPClient
@testable import Courier
import CourierAsyncHTTPClient
import Foundation
import HTTPTypes
import NIOPosix
import ReferenceServer
import Testing

/// A service hands Courier the configuration and event loops of the `HTTPClient` it shares
/// across its libraries: AsyncHTTPClient's default configuration follows redirects itself,
/// and Courier must not let it.
@Suite("AsyncHTTPClient: a client made from the service's configuration")
struct AsyncHTTPClientOwnedClientTests {
    @Test func aCrossOriginRedirectIsCouriersToJudgeWhateverTheConfigurationSays() async throws {
        try await withRunningServer { other, otherURL in
            try await withRunningServer { _, url in
                // AsyncHTTPClient's default: follow up to 5 redirects, anywhere.
                let shared = HTTPClient.Configuration()
                let transport = AsyncHTTPClientTransport(clientConfiguration: shared, eventLoopGroup: MultiThreadedEventLoopGroup.singleton)
                do {
                    var configuration = ClientConfiguration(baseURL: url)
                    configuration.middleware.append(BearerTokenMiddleware(token: "the-password"))
                    configuration.retryPolicy = .none
                    let client = APIClient(configuration: configuration, transport: transport)
                    await other.resetCounters()
                    let post = Request<Data>(
                        method: .post, path: "/debug/redirect",
                        query: [URLQueryItem(name: "to", value: otherURL.absoluteString + "/debug/echo"), URLQueryItem(name: "status", value: "307")],
                        body: .data(Data(#"{"password": "the-password"}"#.utf8), contentType: "application/json")
                    )
                    let error = await courierError { _ = try await client.send(post) }
                    #expect(error?.code == .redirectNotFollowed, "a cross-origin 307 with a body is not followed: \(String(describing: error))")
                    #expect(await other.requestCount(path: "/debug/echo") == 0, "neither the body nor the credential reached the other origin")

                    let get = Request<[String: String]>(
                        path: "/debug/redirect",
                        query: [URLQueryItem(name: "to", value: otherURL.absoluteString + "/debug/headers"), URLQueryItem(name: "status", value: "307")]
                    )
                    let headers = try await client.value(for: get)
                    #expect(headers["authorization"] == nil, "followed by Courier's rules: the credential stays home")
                    try await transport.shutdown()
                } catch {
                    try? await transport.shutdown()
                    throw error
                }
            }
        }
    }
}
