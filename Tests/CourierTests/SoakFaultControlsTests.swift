import Courier
import CourierAsyncHTTPClient
@testable import CourierCLI
import Foundation
import HTTPTypes
import ReferenceServer
import Testing

/// `courier soak` scripts its faults on a server in this process through its Swift controls,
/// and on one in another process (`--server`) through its `/debug` routes: both must make the
/// server fail requests the same way.
@Suite("courier soak: fault controls, in process and over HTTP")
struct SoakFaultControlsTests {
    enum Controls: String, CaseIterable, CustomStringConvertible {
        case embedded, remote
        var description: String { rawValue }

        func make(server: ReferenceServer, url: URL, transport: any Transport) -> any SoakFaultControls {
            switch self {
            case .embedded: return EmbeddedSoakFaults(server: server)
            case .remote: return RemoteSoakFaults(baseURL: url, transport: transport)
            }
        }
    }

    @Test(arguments: Controls.allCases)
    func eachScriptedFaultFailsTheNextRequestsAsScripted(controls kind: Controls) async throws {
        try await withRunningServer { server, url in
            try await withTransport(AsyncHTTPClientTransport()) { transport in
                let controls = kind.make(server: server, url: url, transport: transport)
                let client = APIClient(configuration: ClientConfiguration(baseURL: url, retryPolicy: .none), transport: transport)
                let ping = Request<Data>(path: "/debug/ping")

                try await controls.answer(status: 503, method: "GET", path: "/debug/ping", count: 2)
                #expect(await courierError { _ = try await client.send(ping) }?.code == .serverError)
                #expect(await courierError { _ = try await client.send(ping) }?.code == .serverError)
                #expect(try await client.send(ping).http.status == .ok, "two requests, then none")

                try await controls.dropConnections(method: "POST", path: "/debug/ping", count: 1)
                #expect(try await client.send(ping).http.status == .ok, "limited to POST")
                let post = Request<Data>(method: .post, path: "/debug/ping")
                #expect(await courierError { _ = try await client.send(post) }?.code == .connectionLost)

                try await controls.cutBodies(afterBodyBytes: 16, path: "/debug/bytes", count: 1)
                let bytes = Request<Data>(path: "/debug/bytes", query: [URLQueryItem(name: "count", value: "100000")])
                #expect(await courierError { _ = try await client.send(bytes) }?.code == .connectionLost)
                #expect(try await client.send(bytes).value.count == 100_000, "one response cut, then none")

                let token = try await demoToken(server)
                var radars = Request<Data>(path: "/api/radars")
                radars.headers[.authorization] = "Bearer \(token)"
                #expect(try await client.send(radars).http.status == .ok)
                try await controls.expireAccessTokens()
                #expect(await courierError { _ = try await client.send(radars) }?.code == .unauthorized)

                try await controls.dropRealtimeConnections()

                try await controls.cutBodies(afterBodyBytes: 16, path: "/debug/bytes", count: 3)
                try await controls.dropConnections(method: "GET", path: "/debug/ping", count: 3)
                try await controls.clear()
                #expect(server.faults.remaining(path: "/debug/ping") == 0)
                #expect(server.bodyFaults.remaining(path: "/debug/bytes") == 0)
            }
        }
    }

    @Test func aServerWithoutDebugRoutesRefusesTheRemoteControls() async throws {
        var configuration = ReferenceServerConfiguration(port: 0)
        configuration.enablesDebugRoutes = false
        configuration.passwordHashRounds = ReferenceServerConfiguration.testPasswordHashRounds
        let server = ReferenceServer(configuration: configuration)
        let url = try await server.start()
        do {
            try await withTransport(AsyncHTTPClientTransport()) { transport in
                let controls = RemoteSoakFaults(baseURL: url, transport: transport)
                #expect(await courierError { try await controls.clear() }?.code == .notFound)
            }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test func theServerOptionMustBeAnHTTPURL() throws {
        #expect(throws: (any Error).self) { try SoakCommand.parse(["--minutes", "1", "--server", "ftp://127.0.0.1:21"]) }
        #expect(try SoakCommand.parse(["--minutes", "1", "--server", "http://127.0.0.1:8080"]).server == "http://127.0.0.1:8080")
    }
}
