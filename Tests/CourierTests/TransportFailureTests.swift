import Courier
import Foundation
import HTTPTypes
import ReferenceServer
import Testing

@Suite("Transports: failures become typed errors")
struct TransportFailureTests {
    @Test(arguments: TransportKind.allCases)
    func cancellingTheCallingTaskCancelsTheRequest(kind: TransportKind) async throws {
        // Through an open gate, whose reads say when the request is on the wire.
        try await withGatedServer { _, gate in
            try await gate.open()
            try await withTransport(kind) { transport in
                let client = APIClient(configuration: ClientConfiguration(baseURL: gate.url), transport: transport)
                // The server answers in 10 s: the request stays in flight (the scenario, not a wait).
                let call = Task { try await client.send(Request<Data>(path: "/debug/slow?ms=10000")) }
                #expect(await gate.clientReads.waitUntil(atLeast: 1), "the request reached the wire")
                call.cancel()
                let error = await courierError { _ = try await call.value }
                #expect(error?.code == .cancelled)
                // The call ended before the server's answer (at 10 s) reached the client: the
                // request was cancelled, not waited out. Read off the gate, not a clock, so a
                // slow machine (or a sanitizer) cannot fail it.
                #expect(gate.serverReads.count == 0, "the server's answer had already come")
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func perRequestTimeoutEndsASlowCall(kind: TransportKind) async throws {
        // One attempt, so the bound below measures the timeout, not retries of it.
        try await withClient(kind, configure: { $0.retryPolicy = .none }) { client, _ in
            let started = ContinuousClock.now
            let request = Request<Data>(path: "/debug/slow?ms=10000").timeout(.milliseconds(300))
            let error = await courierError { _ = try await client.send(request) }
            #expect(error?.code == .timedOut)
            #expect(error?.isRetryable == true)
            #expect(ContinuousClock.now - started < .seconds(9), "well before the server's answer at 10 s")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func closedPortIsCannotConnect(kind: TransportKind) async throws {
        // A gate never opened: its port is bound (no one else can take it) but refuses connections.
        try await withGatedServer { _, gate in
            try await withTransport(kind) { transport in
                let client = APIClient(configuration: ClientConfiguration(baseURL: gate.url, timeout: .seconds(5)), transport: transport)
                let error = await courierError { _ = try await client.send(Request<Data>(path: "/debug/ping")) }
                #expect(error?.code == .cannotConnect)
                #expect(error?.url == gate.url.absoluteString + "/debug/ping")
                #expect(error?.neverProcessed == true, "no connection: the server saw nothing")
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aPostWithoutAKeyToAClosedPortIsTriedAgainSinceNoServerSawIt(kind: TransportKind) async throws {
        try await withGatedServer { _, gate in
            try await withTransport(kind) { transport in
                let policy = RetryPolicy(maxAttempts: 2, backoff: .none)
                let client = APIClient(configuration: ClientConfiguration(baseURL: gate.url, timeout: .seconds(5), retryPolicy: policy), transport: transport)
                let error = await courierError { _ = try await client.send(Request<Data>(method: .post, path: "/debug/echo", body: .data(Data("{}".utf8), contentType: "application/json"))) }
                #expect(error?.code == .cannotConnect)
                // Sent again although a POST without a key: no server saw it. A connection never
                // made backs off and gets no extra attempt.
                #expect(error?.attempts == 2)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func wrongTypesInJSONReportTheCodingPath(kind: TransportKind) async throws {
        struct Item: Decodable { var id: Int; var name: String }
        struct Page: Decodable { var items: [Item] }
        try await withClient(kind) { client, _ in
            let error = await courierError { _ = try await client.send(Request<Page>(path: "/debug/malformed-json")) }
            #expect(error?.code == .decodingFailed)
            #expect(error?.codingPath == "items[1].id")
            #expect(error?.status == .ok)
            #expect(error?.bodySnippet?.contains(#""two""#) == true)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func truncatedJSONIsADecodingError(kind: TransportKind) async throws {
        struct Page: Decodable { var items: [Int] }
        try await withClient(kind) { client, _ in
            let error = await courierError { _ = try await client.send(Request<Page>(path: "/debug/invalid-json")) }
            #expect(error?.code == .decodingFailed)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func oversizedBodyIsResponseTooLarge(kind: TransportKind) async throws {
        try await withClient(kind, configure: { $0.maxResponseBytes = 1 << 20 }) { client, _ in
            let error = await courierError { _ = try await client.send(Request<Data>(path: "/debug/bytes?count=\(2 << 20)")) }
            #expect(error?.code == .responseTooLarge)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func bodyCutShortByTheServerIsConnectionLost(kind: TransportKind) async throws {
        try await withClient(kind) { client, _ in
            let error = await courierError { _ = try await client.send(Request<Data>(path: "/debug/truncated")) }
            #expect(error != nil)
            #expect(error?.code == .connectionLost || error?.code == .invalidResponse, "got \(String(describing: error))")
        }
    }

    @Test func aSmallBodyCutShortIsRetriedWithinItsAttemptOnAsyncHTTPClient() async throws {
        // 10 000 bytes declared, 1 000 sent: AsyncHTTPClient's transport reads a body this
        // small before its attempt ends, so the lost connection is the attempt's failure.
        try await withClient(.asyncHTTPClient, configure: {
            $0.retryPolicy = RetryPolicy(maxAttempts: 3, backoff: .none)
        }) { client, _ in
            let error = await courierError { _ = try await client.send(Request<Data>(path: "/debug/truncated?declared=10000")) }
            #expect(error?.code == .connectionLost, "got \(String(describing: error))")
            #expect(error?.attempts == 3)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func errorStatusesCarryTheServersMessage(kind: TransportKind) async throws {
        try await withClient(kind) { client, _ in
            let notFound = await courierError { _ = try await client.send(Request<Data>(path: "/debug/status/404")) }
            #expect(notFound?.code == .notFound)
            #expect(notFound?.serverMessage == "status 404")

            let invalid = await courierError { _ = try await client.send(Request<Data>(method: .post, path: "/debug/validate")) }
            #expect(invalid?.code == .clientError)
            #expect(invalid?.status?.code == 422)
            #expect(invalid?.serverMessage == "name must not be empty")
            #expect(invalid?.serverCode == "validation_failed")

            let failure = await courierError { _ = try await client.send(Request<Data>(path: "/debug/error")) }
            #expect(failure?.code == .serverError)
            #expect(failure?.serverMessage == "internal failure for testing")
            #expect(failure?.isRetryable == true)

            let limited = await courierError { _ = try await client.send(Request<Data>(path: "/debug/status/429")) }
            #expect(limited?.code == .rateLimited)
            #expect(limited?.retryAfter == .seconds(2))
        }
    }
}
