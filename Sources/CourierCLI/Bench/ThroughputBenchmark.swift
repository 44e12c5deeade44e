import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierURLSession
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOHTTP1

/// Requests per second and latency of a small JSON GET, for raw engines and Courier on them.
///
/// Every contender does the same work per request: send `GET /debug/ping?n=<counter>` (a
/// different URL each time, so Courier's dedup cannot share calls), read the whole body, and
/// decode it as JSON. The contenders take turns in rounds, so a noisy moment of
/// the machine falls on all of them alike. Courier runs its default chain.
///
/// Courier on AsyncHTTPClient runs on the raw contender's own `HTTPClient`, as Courier on
/// URLSession runs on the raw contender's session: the same pool and the same connections.
/// With the server in the same process, which event loop a pooled connection lands on
/// (beside its server end, or across from it) moves throughput by up to 40% between two
/// identical raw clients, so contenders with pools of their own measure where their
/// connections happened to land rather than the code between the caller and the engine.
struct ThroughputBenchmark {
    let baseURL: URL
    let quick: Bool

    private struct Ping: Decodable, Sendable { var ok: Bool }

    private typealias Operation = InterleavedRun.Operation

    private static let concurrency = 32
    private static let rounds = 10

    func run(into results: inout BenchResults) async throws {
        let rawClient = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: Self.rawConfiguration()
        )
        // The raw client's pool, shared: see the type's documentation.
        let ahcTransport = AsyncHTTPClientTransport(client: rawClient)
        let session = URLSession(configuration: .ephemeral)
        let courierAHC = APIClient(baseURL: baseURL, transport: ahcTransport)
        let courierURLSession = APIClient(baseURL: baseURL, transport: URLSessionTransport(session: session))
        let courierBare = APIClient(
            configuration: ClientConfiguration(baseURL: baseURL, middleware: [], retryPolicy: .none),
            transport: ahcTransport
        )
        let pings = DistinctPings(baseURL: baseURL)

        let contenders: [(String, Operation)] = [
            ("raw_ahc", {
                let response = try await rawClient.execute(HTTPClientRequest(url: pings.urlString()), timeout: .seconds(30))
                let body = try await response.body.collect(upTo: 1 << 20)
                _ = try JSONDecoder().decode(Ping.self, from: Data(body.readableBytesView))
            }),
            ("courier_ahc", { _ = try await courierAHC.value(for: pings.request(Ping.self)) }),
            ("courier_ahc_bare_chain", { _ = try await courierBare.value(for: pings.request(Ping.self)) }),
            ("raw_urlsession", {
                let (data, _) = try await session.data(for: URLRequest(url: URL(string: pings.urlString())!))
                _ = try JSONDecoder().decode(Ping.self, from: data)
            }),
            ("courier_urlsession", { _ = try await courierURLSession.value(for: pings.request(Ping.self)) }),
        ]

        defer { session.invalidateAndCancel() }
        do {
            let sequentialCount = quick ? 1_000 : 5_000
            let concurrentCount = quick ? 4_000 : 20_000
            try await runMode("sequential", contenders, total: sequentialCount, concurrency: 1, into: &results)
            try await runMode("concurrent_32", contenders, total: concurrentCount, concurrency: Self.concurrency, into: &results)
        } catch {
            try? await rawClient.shutdown()
            throw error
        }
        try await rawClient.shutdown()
    }

    private func runMode(
        _ mode: String,
        _ contenders: [(String, Operation)],
        total: Int,
        concurrency: Int,
        into results: inout BenchResults
    ) async throws {
        let run = InterleavedRun(rounds: Self.rounds, perRound: max(concurrency, total / Self.rounds), concurrency: concurrency)
        let samples = try await run.run(contenders)
        print("\n\(mode) (\(run.perRound * run.rounds) requests each, \(concurrency) in flight)")
        for (name, _) in contenders {
            guard let sample = samples[name] else { continue }
            let prefix = "throughput.\(mode).\(name)"
            results.set("\(prefix).rps", (sample.rate * 10).rounded() / 10)
            results.set("\(prefix).p50_ms", Self.round3(sample.percentileMilliseconds(0.5)))
            results.set("\(prefix).p99_ms", Self.round3(sample.percentileMilliseconds(0.99)))
            results.set("\(prefix).requests", sample.count)
            print(String(
                format: "  %-20@ %9.1f req/s   p50 %7.3f ms   p99 %7.3f ms",
                name as NSString, sample.rate, sample.percentileMilliseconds(0.5), sample.percentileMilliseconds(0.99)
            ))
        }
        for (courier, raw) in [("courier_ahc", "raw_ahc"), ("courier_urlsession", "raw_urlsession")] {
            guard let courierSamples = samples[courier], let rawSamples = samples[raw], rawSamples.rate > 0 else { continue }
            let key = "throughput.\(mode).\(courier)_to_\(raw)"
            let ratio = Self.round3(courierSamples.rate / rawSamples.rate)
            results.set("\(key)_ratio", ratio)
            // The same ratio round by round: how far the machine's noise moves it.
            let perRound = zip(courierSamples.roundRates, rawSamples.roundRates)
                .compactMap { courierRate, rawRate in rawRate > 0 ? courierRate / rawRate : nil }
                .sorted()
            guard let lowest = perRound.first, let highest = perRound.last else {
                print("  \(courier) / \(raw) = \(ratio)")
                continue
            }
            let median = perRound.count % 2 == 1
                ? perRound[perRound.count / 2]
                : (perRound[perRound.count / 2 - 1] + perRound[perRound.count / 2]) / 2
            results.set("\(key)_round_ratio.median", Self.round3(median))
            results.set("\(key)_round_ratio.min", Self.round3(lowest))
            results.set("\(key)_round_ratio.max", Self.round3(highest))
            results.set("\(key)_round_ratio.rounds", perRound.count)
            print(String(
                format: "  %@ / %@ = %.3f   per round: median %.3f, %.3f to %.3f over %d rounds",
                courier as NSString, raw as NSString, ratio, median, lowest, highest, perRound.count
            ))
        }
    }

    private static func rawConfiguration() -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: concurrency)
        return configuration
    }

    private static func round3(_ value: Double) -> Double {
        (value * 1_000).rounded() / 1_000
    }
}
