import ClarityAPI
import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import HTTPTypes
import InMemoryTracing
import RadarAPI
import ReferenceServer
import Synchronization
import Testing
import Tracing

@Suite("Tracing: a span per call, a child per attempt, one trace across client and server")
struct TracingTests {
    /// Runs `body` with a server and a Radar client that share `tracer`; retries wait on a manual clock.
    private func withTracedRadar(
        _ tracer: W3CTestTracer,
        configure: (inout ClientConfiguration) -> Void = { _ in },
        _ body: (ReferenceServer, RadarClient, URL) async throws -> Void
    ) async throws {
        var serverConfiguration = ReferenceServerConfiguration()
        serverConfiguration.tracer = tracer
        try await withRunningServer(serverConfiguration) { server, url in
            let transport = AsyncHTTPClientTransport()
            var configuration = ClientConfiguration(baseURL: url, clock: ManualClock())
            configuration.tracer = tracer
            configuration.middleware.append(BearerTokenMiddleware(token: try await demoToken(server)))
            configure(&configuration)
            let radar = RadarClient(client: APIClient(configuration: configuration, transport: transport))
            do {
                try await body(server, radar, url)
                try await transport.shutdown()
            } catch {
                try? await transport.shutdown()
                throw error
            }
        }
    }

    @Test func aRetriedCallIsOneSpanWithAChildPerAttemptAndTheServerContinuesTheTrace() async throws {
        let tracer = W3CTestTracer()
        try await withTracedRadar(tracer) { server, radar, url in
            server.faults.inject(.rateLimited(retryAfter: "1"), count: 1, method: "GET", path: "/api/radars")
            _ = try await radar.list()

            let spans = tracer.finishedSpans
            let calls = spans.filter { $0.kind == .internal }
            try #require(calls.count == 1)
            let call = calls[0]
            #expect(call.operationName == "radar.list")
            #expect(call.parentSpanID == nil)
            #expect(call.attributes.get("http.request.method") == .string("GET"))
            #expect(call.attributes.get("http.response.status_code") == .int64(200))
            #expect(call.attributes.get("server.address") == .string("127.0.0.1"))
            #expect(call.attributes.get("server.port") == .int64(Int64(url.port ?? 0)))
            #expect(call.attributes.get("courier.attempts") == .int64(2))
            let retry = try #require(call.events.first { $0.name == "retry" })
            #expect(retry.attributes.get("courier.retry.after") == .string("429"))
            #expect(retry.attributes.get("http.response.header.retry-after") == .string("1"))
            #expect(retry.attributes.get("courier.retry.delay_ms") == .int64(1_000))

            let attempts = spans.filter { $0.kind == .client }
            try #require(attempts.count == 2)
            #expect(attempts.allSatisfy { $0.parentSpanID == call.spanID && $0.traceID == call.traceID })
            #expect(attempts.allSatisfy { $0.operationName == "GET radar.list" })
            #expect(attempts[0].attributes.get("http.response.status_code") == .int64(429))
            #expect(attempts[0].attributes.get("error.type") == .string("429"))
            #expect(attempts[0].attributes.get("http.request.resend_count") == nil)
            #expect(attempts[1].attributes.get("http.response.status_code") == .int64(200))
            #expect(attempts[1].attributes.get("http.request.resend_count") == .int64(1))
            #expect(attempts[1].attributes.get("error.type") == nil)

            // The server read each attempt's traceparent: its spans are the attempts' children.
            let served = spans.filter { $0.kind == .server && $0.operationName == "GET /api/radars" }
            try #require(served.count == 2)
            #expect(served.map(\.parentSpanID) == attempts.map(\.spanID))
            #expect(served.allSatisfy { $0.traceID == call.traceID })
        }
    }

    @Test func theURLInSpansIsRedactedAndTheTokenIsNowhere() async throws {
        let tracer = W3CTestTracer()
        try await withTracedRadar(tracer) { server, radar, _ in
            let token = try await demoToken(server)
            _ = try await radar.client.send(Request<Data>(path: "/api/radars", query: [URLQueryItem(name: "access_token", value: token)]))
            let spans = tracer.finishedSpans.filter { $0.kind != .server }
            try #require(spans.count == 2)
            for span in spans {
                guard case .string(let url) = span.attributes.get("url.full") else {
                    Issue.record("no url.full on \(span.operationName)")
                    continue
                }
                #expect(url.contains("/api/radars"))
                #expect(!url.contains(token))
                var everything = ""
                span.attributes.forEach { key, value in everything += "\(key)=\(value);" }
                #expect(!everything.contains(token))
            }
        }
    }

    @Test func aCacheHitIsACallSpanWithAnEventAndNoAttempt() async throws {
        let tracer = W3CTestTracer()
        try await withTracedRadar(tracer, configure: { $0.cache = HTTPCache(storage: MemoryCacheStorage()) }) { _, radar, _ in
            _ = try await radar.list()
            _ = try await radar.list()
            let calls = tracer.finishedSpans.filter { $0.kind == .internal }
            try #require(calls.count == 2)
            #expect(calls[0].events.map(\.name) == ["cache.miss"])
            let served = try #require(calls[1].events.first { $0.name == "cache.served" })
            #expect(served.attributes.get("courier.cache.status") == .string("hit"))
            #expect(served.attributes.get("courier.cache.reason") == .string("fresh"))
            #expect(calls[1].attributes.get("courier.cache.status") == .string("hit"))
            #expect(tracer.finishedSpans.filter { $0.kind == .client }.count == 1, "only the first call went out")
        }
    }

    @Test func aRenewedCredentialIsAnEventAndTheReplayIsAnotherAttempt() async throws {
        let tracer = W3CTestTracer()
        var serverConfiguration = ReferenceServerConfiguration()
        serverConfiguration.tracer = tracer
        try await withRunningServer(serverConfiguration) { server, url in
            let transport = AsyncHTTPClientTransport()
            do {
                try await expectRenewalSpans(server: server, url: url, transport: transport, tracer: tracer)
                try await transport.shutdown()
            } catch {
                try? await transport.shutdown()
                throw error
            }
        }
    }

    private func expectRenewalSpans(server: ReferenceServer, url: URL, transport: AsyncHTTPClientTransport, tracer: W3CTestTracer) async throws {
        var configuration = ClientConfiguration(baseURL: url)
        configuration.tracer = tracer
        let traced = configuration
        let clarity = ClarityClient(baseURL: url, transport: transport, store: InMemoryCredentialStore()) { $0.tracer = traced.tracer }
        let demo = ReferenceServerConfiguration()
        _ = try await clarity.signIn(email: demo.demoEmail, password: demo.demoPassword)
        await server.expireAccessTokens()
        tracer.recorder.clearAll()
        _ = try await clarity.currentUser()
        let spans = tracer.finishedSpans
        let call = try #require(spans.first { $0.kind == .internal && $0.operationName == "get_current_user_info_api_v1_auth_me_get" })
        #expect(call.events.map(\.name).contains("auth.credential_renewed"))
        let attempts = spans.filter { $0.kind == .client && $0.parentSpanID == call.spanID }
        #expect(attempts.map { $0.attributes.get("http.response.status_code") } == [.int64(401), .int64(200)])
        // The refresh is a call of its own, in the same trace.
        #expect(spans.contains { $0.kind == .internal && $0.operationName == "refresh_token_api_v1_auth_refresh_post" && $0.traceID == call.traceID })
    }

    @Test func aFailedCallRecordsItsErrorTypeOnBothSpans() async throws {
        let tracer = W3CTestTracer()
        // A gate never opened: its port is bound (no one else can take it) but refuses connections.
        let error = try await withGatedServer { _, gate in
            let transport = AsyncHTTPClientTransport()
            var configuration = ClientConfiguration(baseURL: gate.url, retryPolicy: .none)
            configuration.tracer = tracer
            let client = APIClient(configuration: configuration, transport: transport)
            let error = await courierError { _ = try await client.send(Request<Data>(path: "/x", name: "probe")) }
            try? await transport.shutdown()
            return error
        }
        let code = try #require(error?.code)
        let spans = tracer.finishedSpans
        try #require(spans.count == 2)
        for span in spans {
            #expect(span.attributes.get("error.type") == .string("\(code)"))
            #expect(span.status?.code == .error)
            #expect(span.errors.count == 1)
        }
    }

    @Test func withoutATracerNoPropagationFieldIsSent() async throws {
        let seen = Mutex<[HTTPFields]>([])
        let capture = ClosureMiddleware { request, body, context, next in
            seen.withLock { $0.append(request.headerFields) }
            return try await next(request, body, context)
        }
        let tracer = W3CTestTracer()
        for traced in [false, true] {
            let client = APIClient(
                configuration: {
                    var configuration = ClientConfiguration(baseURL: URL(string: "https://api.example.test")!)
                    configuration.networkMiddleware = [capture]
                    if traced { configuration.tracer = tracer }
                    return configuration
                }(),
                transport: MockTransport(always: .status(.ok))
            )
            _ = try await client.send(Request<Data>(path: "/x"))
        }
        let fields = seen.withLock { $0 }
        try #require(fields.count == 2)
        #expect(!fields[0].contains(HTTPField.Name("traceparent")!))
        let attempt = try #require(tracer.finishedSpans.first { $0.kind == .client })
        #expect(fields[1][HTTPField.Name("traceparent")!] == "00-\(attempt.traceID)-\(attempt.spanID)-01")
    }

    @Test func propagationFieldsAreWrittenAndReadBackByName() {
        var fields: HTTPFields = [.contentType: "application/json"]
        HTTPFieldsInjector().inject("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", forKey: "traceparent", into: &fields)
        HTTPFieldsInjector().inject("00-ffffffffffffffffffffffffffffffff-ffffffffffffffff-01", forKey: "traceparent", into: &fields)
        HTTPFieldsInjector().inject("ignored", forKey: "not a field name", into: &fields)
        #expect(fields.count == 2, "one traceparent, replaced rather than repeated; the bad name skipped")
        #expect(HTTPFieldsExtractor().extract(key: "traceparent", from: fields) == "00-ffffffffffffffffffffffffffffffff-ffffffffffffffff-01")
        #expect(HTTPFieldsExtractor().extract(key: "TraceParent", from: fields) != nil, "names are case-insensitive")
        #expect(HTTPFieldsExtractor().extract(key: "tracestate", from: fields) == nil)
    }
}
