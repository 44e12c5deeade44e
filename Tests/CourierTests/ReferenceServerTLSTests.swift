import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import RadarAPI
import ReferenceServer
import Testing

@Suite("The reference server over TLS")
struct ReferenceServerTLSTests {
    @Test func theRadarAPIIsReachedWithTheRightPinAndNeverWithAWrongOne() async throws {
        let certificates = try TestCertificates.make()
        var configuration = ReferenceServerConfiguration()
        configuration.tlsConfiguration = try certificates.serverTLSConfiguration()
        try await withRunningServer(configuration) { server, url in
            #expect(url.scheme == "https")
            let token = try await demoToken(server)
            let roots = TLSPolicy.TrustRoots.certificates([try certificates.caDER()])

            let pinned = AsyncHTTPClientTransport(configuration: .init(tls: TLSPolicy(trustRoots: roots, pinnedPublicKeys: [certificates.serverKeyPin])))
            let page = try await withTransport(pinned) { pinned in
                try await RadarClient(baseURL: url, transport: pinned, token: token).list()
            }
            #expect(page.items.count == 3)

            await server.resetCounters()
            let mispinned = AsyncHTTPClientTransport(configuration: .init(tls: TLSPolicy(trustRoots: roots, pinnedPublicKeys: [TestCertificates.unrelatedKeyPin])))
            var clientConfiguration = ClientConfiguration(baseURL: url, retryPolicy: .aggressive, clock: ManualClock())
            clientConfiguration.middleware.append(BearerTokenMiddleware(token: token))
            let error = try await withTransport(mispinned) { mispinned -> CourierError? in
                let client = APIClient(configuration: clientConfiguration, transport: mispinned)
                return await courierError { _ = try await client.send(RadarEndpoints.list()) }
            }
            #expect(error?.code == .tlsFailure)
            #expect(error?.message.contains("pin") == true)
            #expect(error?.attempts == 1, "a TLS failure is never retried")
            #expect(await server.requestCount(path: "/api/radars") == 0, "no request reached the server")
        }
    }
}
