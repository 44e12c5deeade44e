import Courier
import CourierTesting
import Foundation

/// What Courier itself costs per call, with no network: the default chain over a transport
/// that answers at once, beside decoding the same bytes alone.
struct ChainOverheadBenchmark {
    let calls: Int

    private struct Ping: Decodable, Sendable { var ok: Bool }

    func run(into results: inout BenchResults) async throws {
        let body = Data(#"{"ok":true}"#.utf8)
        let transport = MockTransport(always: MockResponse(status: .ok, headers: [.contentType: "application/json"], body: body))
        let client = APIClient(baseURL: URL(string: "http://127.0.0.1:1")!, transport: transport)
        let ping = Request<Ping>(path: "/debug/ping")
        let contenders: [(String, InterleavedRun.Operation)] = [
            ("decode_only", { _ = try JSONDecoder().decode(Ping.self, from: body) }),
            ("courier_default_chain", {
                _ = try await client.value(for: ping)
                transport.reset()
            }),
        ]
        let samples = try await InterleavedRun(rounds: 5, perRound: calls / 5, concurrency: 1).run(contenders)
        print("\nchain overhead (no network, \(calls) calls each)")
        for (name, _) in contenders {
            guard let sample = samples[name] else { continue }
            let p50 = sample.percentileMilliseconds(0.5) * 1_000
            results.set("throughput.chain_overhead.\(name).p50_us", (p50 * 10).rounded() / 10)
            results.set("throughput.chain_overhead.\(name).calls", sample.count)
            print(String(format: "  %-24@ p50 %8.1f µs", name as NSString, p50))
        }
    }
}
