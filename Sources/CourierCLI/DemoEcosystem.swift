import Courier
import CourierOpenAPI
import Foundation
import InMemoryTracing
import ReferenceAPIClient
import ReferenceServer

/// The ecosystem part of the demo: the client generated from the reference APIs' OpenAPI
/// document, sent through Courier's chain, with every call traced.
struct DemoEcosystem {
    let server: ReferenceServer
    let baseURL: URL
    let transport: any Transport
    let token: String
    let report: DemoReport

    func run() async throws {
        print("\n── A generated OpenAPI client on Courier's chain, traced")
        let tracer = InMemoryTracer()
        var configuration = ClientConfiguration(baseURL: baseURL)
        configuration.cache = HTTPCache(storage: MemoryCacheStorage())
        configuration.tracer = tracer
        configuration.middleware = [BearerTokenMiddleware(token: token)]
        let courier = APIClient(configuration: configuration, transport: transport)
        let api = Client(serverURL: baseURL, transport: CourierClientTransport(client: courier))

        server.faults.inject(.status(503), count: 1, method: "GET", path: "/api/radars")
        let first = try await api.listRadars(query: .init(limit: 3)).ok.body.json
        let second = try await api.listRadars(query: .init(limit: 3)).ok.body.json
        print("  listRadars (generated from /openapi.yaml) → \(first.count) radars through a 503 and a retry; again → \(second.count) from Courier's cache")
        report.set("ecosystem", "generated_calls", 2)

        let spans = tracer.finishedSpans
        let calls = spans.filter { $0.kind == .internal }
        let attempts = spans.filter { $0.kind == .client }
        print("  the trace: \(calls.count) call spans named by the operation id, \(attempts.count) attempt spans (traceparent sent with each):")
        for line in SpanTreePrinter(tracer: tracer).lines() where !line.contains("· ") {
            print("    " + line)
        }
        report.set("ecosystem", "call_spans", calls.count)
        report.set("ecosystem", "attempt_spans", attempts.count)
    }
}
