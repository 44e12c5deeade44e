import Courier
import CourierAsyncHTTPClient
import Foundation

/// The default chain's throughput on a healthy server with retry enabled, divided by the
/// same with retry disabled: what the retry stage costs when nothing fails.
struct RetryOverheadBenchmark {
    let baseURL: URL
    let total: Int

    private struct Ping: Decodable, Sendable { var ok: Bool }

    func run(into results: inout BenchResults) async throws {
        let transport = AsyncHTTPClientTransport(configuration: .init(connectionsPerHost: 32))
        do {
            let withRetry = APIClient(configuration: ClientConfiguration(baseURL: baseURL, retryPolicy: .default), transport: transport)
            let withoutRetry = APIClient(configuration: ClientConfiguration(baseURL: baseURL, retryPolicy: .none), transport: transport)
            let pings = DistinctPings(baseURL: baseURL)
            let contenders: [(String, @Sendable () async throws -> Void)] = [
                ("retry_enabled", { _ = try await withRetry.value(for: pings.request(Ping.self)) }),
                ("retry_disabled", { _ = try await withoutRetry.value(for: pings.request(Ping.self)) }),
            ]
            let samples = try await InterleavedRun(rounds: 5, perRound: max(32, total / 5), concurrency: 32).run(contenders)
            let enabled = samples["retry_enabled"]?.rate ?? 0
            let disabled = samples["retry_disabled"]?.rate ?? 0
            let ratio = disabled > 0 ? (enabled / disabled * 1_000).rounded() / 1_000 : 0
            results.set("throughput.retry_overhead_ratio", ratio)
            results.set("throughput.retry_overhead.retry_enabled_rps", (enabled * 10).rounded() / 10)
            results.set("throughput.retry_overhead.retry_disabled_rps", (disabled * 10).rounded() / 10)
            results.set("throughput.retry_overhead.requests", samples["retry_enabled"]?.count ?? 0)
            print("\nretry overhead (32 in flight, healthy server)")
            print(String(format: "  retry enabled %.1f req/s, disabled %.1f req/s, ratio %.3f", enabled, disabled, ratio))
            try await transport.shutdown()
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }
}
