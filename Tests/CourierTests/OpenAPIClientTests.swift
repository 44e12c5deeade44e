import ClarityAPI
import Courier
import CourierAsyncHTTPClient
@testable import CourierOpenAPI
import CourierTesting
import Crypto
import Foundation
import HTTPTypes
import OpenAPIRuntime
import ReferenceAPIClient
import ReferenceServer
import Testing

/// The client generated from the reference APIs' OpenAPI document, sent through Courier's
/// chain by `CourierClientTransport`, against the reference server.
@Suite("A generated OpenAPI client on Courier's chain", .timeLimit(.minutes(1)))
struct OpenAPIClientTests {
    /// Runs `body` with a server, a Courier client configured by `configure` and signed with
    /// the demo account's token, and a generated client on top of it.
    private func withGeneratedClient(
        configure: (inout ClientConfiguration) -> Void = { _ in },
        _ body: (ReferenceServer, ReferenceAPIClient.Client, ManualClock) async throws -> Void
    ) async throws {
        try await withRunningServer { server, url in
            let clock = ManualClock()
            let transport = AsyncHTTPClientTransport()
            var configuration = ClientConfiguration(baseURL: url, clock: clock)
            configuration.middleware.append(BearerTokenMiddleware(token: try await demoToken(server)))
            configure(&configuration)
            let courier = APIClient(configuration: configuration, transport: transport)
            let api = Client(serverURL: url, transport: CourierClientTransport(client: courier))
            do {
                try await body(server, api, clock)
                try await transport.shutdown()
            } catch {
                try? await transport.shutdown()
                throw error
            }
        }
    }

    @Test func aSecondReadIsAnsweredByCouriersCache() async throws {
        try await withGeneratedClient(configure: { $0.cache = HTTPCache(storage: MemoryCacheStorage()) }) { server, api, _ in
            let first = try await api.listRadars(query: .init(limit: 5)).ok.body.json
            let second = try await api.listRadars(query: .init(limit: 5)).ok.body.json
            #expect(!first.isEmpty)
            #expect(second == first)
            #expect(await server.requestCount(method: "GET", path: "/api/radars") == 1, "the second call never left the process")
        }
    }

    @Test func aKeyedWriteIsRetriedThroughA503AndAppliedOnce() async throws {
        try await withGeneratedClient { server, api, clock in
            server.faults.inject(.status(503), count: 1, method: "POST", path: "/api/radars")
            let key = UUID().uuidString
            let created = try await api.createRadar(
                headers: .init(idempotencyKey: key),
                body: .json(.init(topic: "OpenAPI through Courier"))
            ).created.body.json
            #expect(created.topic == "OpenAPI through Courier")
            #expect(await server.requestCount(method: "POST", path: "/api/radars") == 2)
            #expect(clock.sleeps.count == 1, "one backoff wait before the second attempt")
            let all = try await api.listRadars(query: .init(limit: 100)).ok.body.json
            #expect(all.filter { $0.topic == "OpenAPI through Courier" }.count == 1)
        }
    }

    @Test func anUnkeyedWriteIsNotRetriedAndTheGeneratedClientSeesThe503() async throws {
        try await withGeneratedClient { server, api, _ in
            server.faults.inject(.status(503), count: 1, method: "POST", path: "/api/radars")
            let output = try await api.createRadar(body: .json(.init(topic: "no key")))
            guard case .serviceUnavailable = output else {
                Issue.record("expected the documented 503, got \(output)")
                return
            }
            #expect(await server.requestCount(method: "POST", path: "/api/radars") == 1)
        }
    }

    @Test func anExpiredTokenIsRefreshedOnceAndTheOperationReplayed() async throws {
        try await withRunningServer { server, url in
            let transport = AsyncHTTPClientTransport()
            do {
                let clarity = ClarityClient(baseURL: url, transport: transport, store: InMemoryCredentialStore())
                let demo = ReferenceServerConfiguration()
                _ = try await clarity.signIn(email: demo.demoEmail, password: demo.demoPassword)
                await server.expireAccessTokens()
                await server.resetCounters()
                let api = Client(serverURL: url, transport: CourierClientTransport(client: clarity.client))
                let radars = try await api.listRadars(query: .init(limit: 5)).ok.body.json
                #expect(!radars.isEmpty)
                #expect(await server.requestCount(method: "GET", path: "/api/radars") == 2, "rejected once, replayed once")
                #expect(await server.requestCount(method: "POST", path: "/api/v1/auth/refresh") == 1)
                try await transport.shutdown()
            } catch {
                try? await transport.shutdown()
                throw error
            }
        }
    }

    @Test func aFailureToConnectReachesTheCallerAsATypedCourierError() async throws {
        // A gate never opened: its port is bound (no one else can take it) but refuses connections.
        try await withGatedServer { _, gate in
            let transport = AsyncHTTPClientTransport()
            let courier = APIClient(configuration: ClientConfiguration(baseURL: gate.url, retryPolicy: .none), transport: transport)
            let api = Client(serverURL: gate.url, transport: CourierClientTransport(client: courier))
            do {
                _ = try await api.listRadars()
                Issue.record("a closed port answered")
            } catch let error as ClientError {
                #expect(error.operationID == "listRadars")
                #expect((error.underlyingError as? CourierError)?.code == .cannotConnect)
            } catch {
                Issue.record("expected the runtime's ClientError, got \(error)")
            }
            try? await transport.shutdown()
        }
    }

    @Test func theServerServesTheDocumentItWasGeneratedFrom() async throws {
        try await withReferenceServer { url in
            let transport = AsyncHTTPClientTransport()
            let courier = APIClient(baseURL: url, transport: transport)
            let document: Response<String>
            do {
                document = try await courier.send(Request<String>(path: "/openapi.yaml"))
                try await transport.shutdown()
            } catch {
                try? await transport.shutdown()
                throw error
            }
            #expect(document.headers[.contentType] == "application/yaml")
            #expect(document.value.hasPrefix("openapi: 3.1.0"))
            #expect(document.value.contains("operationId: listRadars"))
        }
    }

    @Test func requestPathsGoAfterTheServerURLsPath() throws {
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/radars?limit=2")
        let target = try CourierClientTransport.absolute(request, baseURL: URL(string: "https://api.example.test:8443/api/")!)
        #expect(target.scheme == "https")
        #expect(target.authority == "api.example.test:8443")
        #expect(target.path == "/api/radars?limit=2")
    }

    @Test func theCommittedClientWasGeneratedFromTheDocumentAsItIsNow() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let document = try Data(contentsOf: root.appendingPathComponent("Sources/ReferenceServer/OpenAPI/openapi.yaml"))
        let recorded = try String(contentsOf: root.appendingPathComponent("Sources/ReferenceAPIClient/document.sha256"), encoding: .utf8)
        let digest = SHA256.hash(data: document).map { String(format: "%02x", $0) }.joined()
        #expect(recorded.trimmingCharacters(in: .whitespacesAndNewlines) == digest, "the document changed: run scripts/openapi-generate.sh and commit its output")
    }

    @Test func aStreamedBodyStaysAStreamBothWays() async throws {
        // Request: unknown length, read once, is handed on as a stream, not gathered.
        let chunks = AsyncStream<ArraySlice<UInt8>> { continuation in
            for _ in 0..<3 { continuation.yield(ArraySlice(repeating: 7, count: 1_000)) }
            continuation.finish()
        }
        let outgoing = OpenAPIRuntime.HTTPBody(chunks, length: .unknown, iterationBehavior: .single)
        let courierBody = try #require(try await CourierClientTransport.courierBody(outgoing))
        #expect(courierBody.bufferedData == nil)
        #expect(courierBody.length == .unknown)
        #expect(!courierBody.isReplayable)
        #expect(try await courierBody.collect(upTo: 1 << 20).count == 3_000)

        // A small body of known length is gathered, so a retry can send it again.
        let small = try #require(try await CourierClientTransport.courierBody(OpenAPIRuntime.HTTPBody(#"{"topic":"x"}"#)))
        #expect(small.bufferedData == Data(#"{"topic":"x"}"#.utf8))

        // Response: a streamed Courier body reaches the generated client as a stream of the same bytes.
        let parts = AsyncStream<Data> { continuation in
            for index in 0..<4 { continuation.yield(Data(repeating: UInt8(index), count: 500)) }
            continuation.finish()
        }
        let incoming = CourierClientTransport.openAPIBody(Courier.HTTPBody(parts, length: .known(2_000)))
        #expect(incoming.length == .known(2_000))
        #expect(incoming.iterationBehavior == .single)
        let bytes = try await [UInt8](collecting: incoming, upTo: 1 << 20)
        #expect(bytes.count == 2_000 && bytes.last == 3)
    }
}
