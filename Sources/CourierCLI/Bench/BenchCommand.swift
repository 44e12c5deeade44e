import ArgumentParser
import Foundation
import ReferenceServer

/// `courier bench`: benchmarks in one process, each figure beside its baseline from the same run.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure Courier against raw AsyncHTTPClient and URLSession on the embedded server."
    )

    @Flag(help: "Fewer operations: a quick check rather than a careful measurement.")
    var quick = false

    @Option(help: "Also write the results as JSON.")
    var json: String?

    @Option(help: "Run only these groups (comma-separated: overhead, throughput, retry, auth, cache, queue, websocket, transfer); all by default.")
    var only: String?

    @Option(help: "Throughput only: run just these contenders (comma-separated, such as raw_ahc,courier_ahc), for profiling one at a time; the diagnostic contenders (courier_ahc_transport_only, courier_ahc_core, raw_ahc_busy_5us … raw_ahc_busy_30us) run only when named here.")
    var contenders: String?

    func run() async throws {
        let server = ReferenceServer(configuration: .embedded)
        let url = try await server.start()
        print("benchmarking against \(url.absoluteString)\(quick ? " (quick)" : "")")
        var results = BenchResults()
        do {
            let groups = Set((only ?? "overhead,throughput,retry,auth,cache,queue,websocket,transfer").split(separator: ",").map(String.init))
            if groups.contains("overhead") { try await ChainOverheadBenchmark(calls: quick ? 5_000 : 20_000).run(into: &results) }
            if groups.contains("throughput") { try await ThroughputBenchmark(baseURL: url, quick: quick, only: contenders.map { Set($0.split(separator: ",").map(String.init)) }).run(into: &results) }
            if groups.contains("retry") { try await RetryOverheadBenchmark(baseURL: url, total: quick ? 4_000 : 20_000).run(into: &results) }
            if groups.contains("auth") { try await AuthBenchmark(server: server, baseURL: url, concurrentRequests: 1_000).run(into: &results) }
            if groups.contains("cache") {
                print("\ncache and dedup")
                try await CacheBenchmark(server: server, baseURL: url, quick: quick).run(into: &results)
            }
            if groups.contains("queue") { try await QueueBenchmark(server: server, baseURL: url, quick: quick).run(into: &results) }
            if groups.contains("websocket") { try await WebSocketBenchmark(server: server, baseURL: url, quick: quick).run(into: &results) }
            if groups.contains("transfer") { try await TransferBenchmark(baseURL: url, quick: quick).run(into: &results) }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
        if let json {
            try results.write(to: URL(fileURLWithPath: json))
            print("results written to \(json)")
        }
    }
}
