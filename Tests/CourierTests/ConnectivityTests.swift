import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import ReferenceServer
import Testing

@Suite("Connectivity against the reference server", .timeLimit(.minutes(1)))
struct ConnectivityTests {
    @Test func theProbeBringsTheStatusBackWhenTheHealthURLAnswers() async throws {
        try await withRunningServer { _, url in
            try await withTransport { transport in
                let monitor = ConnectivityMonitor(probe: .init(
                    url: url.appendingPathComponent("debug/ping"), transport: transport,
                    backoff: Backoff(.constant(.milliseconds(10)), maxDelay: .milliseconds(10), jitter: .none)
                ))
                var updates = monitor.updates().makeAsyncIterator()
                #expect(await updates.next() == .online)
                monitor.report(.requestUnreachable)
                #expect(await updates.next() == .offline)
                #expect(await updates.next() == .online, "the probe reached the server")
            }
        }
    }

    @Test func aRequestMayWaitForConnectivityInsteadOfFailingAtOnce() async throws {
        try await withRunningServer { _, url in
            try await withTransport { transport in
                let monitor = ConnectivityMonitor(initial: .offline)
                var configuration = ClientConfiguration(baseURL: url)
                configuration.connectivity = monitor
                let client = APIClient(configuration: configuration, transport: transport)
                var request = Request<Data>(path: "/debug/ping")
                request.options.connectivityWait = .seconds(30)
                let waiting = Task { try await client.send(request) }
                var updates = monitor.updates().makeAsyncIterator()
                #expect(await updates.next() == .offline)
                monitor.report(.pathChanged(.online))
                let response = try await waiting.value
                #expect(response.status == .ok)
            }
        }
    }

    @Test func aRefusedConnectionMarksOfflineAndAnAnswerMarksOnline() async throws {
        try await withGatedServer { _, gate in
            try await withTransport { transport in
                let monitor = ConnectivityMonitor()
                var configuration = ClientConfiguration(baseURL: gate.url, retryPolicy: .none)
                configuration.connectivity = monitor
                let client = APIClient(configuration: configuration, transport: transport)
                let refused = await courierError { _ = try await client.send(Request<Data>(path: "/debug/ping")) }
                #expect(refused?.code == .cannotConnect)
                #expect(monitor.status == .offline)
                try await gate.open()
                _ = try await client.send(Request<Data>(path: "/debug/ping"))
                #expect(monitor.status == .online)
            }
        }
    }
}
