import Courier
import CourierTesting
import Foundation
import Metrics
import MetricsTestKit
import Testing

@Suite("Metrics")
struct MetricsMiddlewareTests {
    private func client(_ transport: MockTransport, metrics: TestMetrics) -> APIClient {
        let configuration = ClientConfiguration(
            baseURL: URL(string: "https://api.example.test")!,
            middleware: [MetricsMiddleware(factory: metrics)],
            retryPolicy: .none
        )
        return APIClient(configuration: configuration, transport: transport)
    }

    @Test func outcomesAreCountedAndEndpointsTimed() async throws {
        let metrics = TestMetrics()
        let transport = MockTransport { request, _ in request.path == "/ok" ? .json(#"{"ok":true}"#) : .status(.notFound) }
        let client = client(transport, metrics: metrics)
        _ = try await client.send(Request<Data>(path: "/ok", name: "things.get"))
        _ = try await client.send(Request<Data>(path: "/ok", name: "things.get"))
        _ = await courierError { _ = try await client.send(Request<Data>(path: "/missing", name: "things.get")) }

        let success = try metrics.expectCounter(MetricsMiddleware.counterLabel, [("endpoint", "things.get"), ("method", "GET"), ("outcome", "2xx")])
        #expect(success.totalValue == 2)
        let missing = try metrics.expectCounter(MetricsMiddleware.counterLabel, [("endpoint", "things.get"), ("method", "GET"), ("outcome", "4xx")])
        #expect(missing.totalValue == 1)
        let timer = try metrics.expectTimer(MetricsMiddleware.timerLabel, [("endpoint", "things.get"), ("method", "GET")])
        #expect(timer.values.count == 3)
        #expect(timer.values.allSatisfy { $0 > 0 })
    }

    @Test func transportFailuresAreCountedByCodeAndUnnamedRequestsShareOneLabel() async throws {
        let metrics = TestMetrics()
        let transport = MockTransport { _, _ in throw CourierError(code: .cannotConnect, message: "refused") }
        let client = client(transport, metrics: metrics)
        for id in 1...3 {
            _ = await courierError { _ = try await client.send(Request<Data>(path: "/items/\(id)")) }
        }
        let failures = try metrics.expectCounter(MetricsMiddleware.counterLabel, [("endpoint", "unnamed"), ("method", "GET"), ("outcome", "cannotConnect")])
        #expect(failures.totalValue == 3)
        #expect(metrics.timers.count == 1, "ids in paths never become labels")
    }

    @Test func theFactoryInPlaceWhenTheMiddlewareIsMadeIsTheOneItRecordsTo() async throws {
        let metrics = TestMetrics()
        // swift-metrics' task-local factory stands in for a bootstrapped backend here.
        let middleware = withMetricsFactory(metrics) { MetricsMiddleware() }
        #expect(!middleware.recordsNothing)
        #expect(!middleware.passesEveryCallOn)
        let client = APIClient(
            configuration: ClientConfiguration(baseURL: URL(string: "https://api.example.test")!, middleware: [middleware], retryPolicy: .none),
            transport: MockTransport { _, _ in .json(#"{"ok":true}"#) }
        )
        _ = try await client.send(Request<Data>(path: "/ok", name: "things.get"))
        let success = try metrics.expectCounter(MetricsMiddleware.counterLabel, [("endpoint", "things.get"), ("method", "GET"), ("outcome", "2xx")])
        #expect(success.totalValue == 1)
    }

    @Test func withNoBackendCallsPassStraightOnAndStillSucceedOrFail() async throws {
        let middleware = MetricsMiddleware(factory: NOOPMetricsHandler.instance)
        #expect(middleware.recordsNothing)
        #expect(middleware.passesEveryCallOn, "the client leaves it out of the chain")
        let transport = MockTransport { request, _ in request.path == "/ok" ? .json(#"{"ok":true}"#) : .status(.notFound) }
        let client = APIClient(
            configuration: ClientConfiguration(baseURL: URL(string: "https://api.example.test")!, middleware: [middleware], retryPolicy: .none),
            transport: transport
        )
        let response = try await client.send(Request<Data>(path: "/ok"))
        #expect(response.data == Data(#"{"ok":true}"#.utf8))
        let error = await courierError { _ = try await client.send(Request<Data>(path: "/missing")) }
        #expect(error?.code == .notFound)
        #expect(transport.requests.count == 2)
    }
}
