import ArgumentParser
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
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

    @Option(help: "Run only these groups (comma-separated: overhead, throughput, retry, auth, cache, queue, websocket, transfer, compression, h2, fleet); all but fleet by default (fleet starts PostgreSQL and worker processes, and its quota run alone takes over two minutes).")
    var only: String?
    @Option(help: "Fleet only: a PostgreSQL URL instead of a private server (the database-restart run is then skipped).")
    var postgres: String?

    @Option(help: "Throughput only: run just these contenders (comma-separated, such as raw_ahc,courier_ahc), for profiling one at a time; the diagnostic contenders (courier_ahc_transport_only, courier_ahc_core, raw_ahc_busy_5us … raw_ahc_busy_30us, courier_urlsession_shared_session, courier_urlsession_transport_only, courier_urlsession_core, raw_urlsession_no_stores, raw_urlsession_same_headers, raw_urlsession_task_handler) run only when named here.")
    var contenders: String?

    @Option(help: "Measure against this server in another process (start it with `courier serve --debug-routes`) instead of the embedded one; the throughput group runs (with `--only transfer` or `--only throughput,transfer`, the transfer group), and CPU figures are then the client process's alone.")
    var server: String?

    /// The groups `--server` can measure: the others drive the embedded server directly.
    static let groupsAgainstAServer: Set<String> = ["throughput", "transfer"]

    func validate() throws {
        guard let server else { return }
        guard let url = URL(string: server), ["http", "https"].contains(url.scheme), url.host != nil else {
            throw ValidationError("--server needs an http or https URL, such as http://127.0.0.1:8080")
        }
        if let only, !Set(only.split(separator: ",").map(String.init)).isSubset(of: Self.groupsAgainstAServer) {
            throw ValidationError("--server measures the throughput and transfer groups only (the others drive the embedded server directly)")
        }
    }

    func run() async throws {
        if let server, let url = URL(string: server) {
            try await runAgainst(url)
            return
        }
        let server = ReferenceServer(configuration: .embedded)
        let url = try await server.start()
        print("benchmarking against \(url.absoluteString)\(quick ? " (quick)" : "")")
        var results = BenchResults()
        do {
            let groups = Set((only ?? "overhead,throughput,retry,auth,cache,queue,websocket,transfer,compression,h2").split(separator: ",").map(String.init))
            if groups.contains("overhead") { try await ChainOverheadBenchmark(calls: quick ? 5_000 : 20_000).run(into: &results) }
            if groups.contains("throughput") {
                results.set("throughput.server", "embedded")
                try await ThroughputBenchmark(baseURL: url, quick: quick, only: contenders.map { Set($0.split(separator: ",").map(String.init)) }).run(into: &results)
            }
            if groups.contains("retry") { try await RetryOverheadBenchmark(baseURL: url, total: quick ? 4_000 : 20_000).run(into: &results) }
            if groups.contains("auth") { try await AuthBenchmark(server: server, baseURL: url, concurrentRequests: 1_000).run(into: &results) }
            if groups.contains("cache") {
                print("\ncache and dedup")
                try await CacheBenchmark(server: server, baseURL: url, quick: quick).run(into: &results)
            }
            if groups.contains("queue") { try await QueueBenchmark(server: server, baseURL: url, quick: quick).run(into: &results) }
            if groups.contains("websocket") { try await WebSocketBenchmark(server: server, baseURL: url, quick: quick).run(into: &results) }
            if groups.contains("transfer") {
                results.set("transfer.server", "embedded")
                try await TransferBenchmark(baseURL: url, quick: quick, serverInProcess: true).run(into: &results)
            }
            if groups.contains("compression") { try await CompressionBenchmark(baseURL: url, quick: quick).run(into: &results) }
            if groups.contains("fleet") { try await FleetBenchmark(postgres: postgres, quick: quick).run(into: &results) }
            if groups.contains("h2") { try await HTTP2Benchmark(quick: quick).run(into: &results) }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
        try write(results)
    }

    /// The throughput group (or those of `--only` that can) against a server in another process.
    private func runAgainst(_ url: URL) async throws {
        print("benchmarking against \(url.absoluteString), in another process\(quick ? " (quick)" : "")")
        let probe = URLSession(configuration: .ephemeral)
        defer { probe.finishTasksAndInvalidate() }
        let (_, answer) = try await probe.data(from: url.appendingPathComponent("debug/ping"))
        guard (answer as? HTTPURLResponse)?.statusCode == 200 else {
            throw ValidationError("\(url.absoluteString)/debug/ping did not answer 200: start the server with `courier serve --debug-routes`")
        }
        var results = BenchResults()
        let groups = Set((only ?? "throughput").split(separator: ",").map(String.init))
        if groups.contains("throughput") {
            results.set("throughput.server", "external")
            try await ThroughputBenchmark(
                baseURL: url, quick: quick, only: contenders.map { Set($0.split(separator: ",").map(String.init)) }, serverInProcess: false
            ).run(into: &results)
        }
        if groups.contains("transfer") {
            results.set("transfer.server", "external")
            try await TransferBenchmark(baseURL: url, quick: quick, serverInProcess: false).run(into: &results)
        }
        try write(results)
    }

    private func write(_ results: BenchResults) throws {
        guard let json else { return }
        try results.write(to: URL(fileURLWithPath: json))
        print("results written to \(json)")
    }
}
