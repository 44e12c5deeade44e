import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL

/// `courier bench --only h2`: Courier beside raw AsyncHTTPClient over HTTP/2, against the
/// reference server on HTTPS in another process (`courier serve --tls`), and a drain run.
///
/// - `h2.sequential` and `h2.concurrent_32`: GETs one at a time and 32 in flight, the two
///   contenders interleaved round by round on one shared `HTTPClient` (the same TLS settings,
///   pool and HTTP/2 connection); `…courier_to_raw` is the median of the rounds' rate ratios.
/// - `h2.goaway`: GETs at 32 in flight while the server sends a `GOAWAY` every 100 requests on a
///   connection (as nginx's `keepalive_requests 100` does): how many Courier's default chain
///   failed (`failed`, goal 0), and how many raw AsyncHTTPClient did in the same run (`raw_failed`).
struct HTTP2Benchmark {
    let quick: Bool

    private struct Ping: Decodable, Sendable { var ok: Bool }
    private static let concurrency = 32
    private static let rounds = 20

    func run(into results: inout BenchResults) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-h2-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        print("\nHTTP/2 over TLS, the reference server in another process")
        try await measureThroughput(folder: folder, into: &results)
        try await measureDrain(folder: folder, into: &results)
    }

    private func measureThroughput(folder: URL, into results: inout BenchResults) async throws {
        let ca = folder.appendingPathComponent("ca.pem")
        try await ServeProcess.run(["--tls", "--port", "0", "--debug-routes", "--ca-out", ca.path]) { url in
            let raw = try Self.rawClient(trusting: ca)
            do {
                let courier = APIClient(baseURL: url, transport: AsyncHTTPClientTransport(sharing: raw))
                let pings = DistinctPings(baseURL: url)
                let decoder = JSONDecoder()
                let check = try await raw.execute(HTTPClientRequest(url: pings.urlString()), timeout: .seconds(30))
                let courierCheck = try await courier.send(pings.request(Ping.self))
                guard check.version.major == 2, courierCheck.metrics.protocolVersion == .http2 else {
                    throw ServeProcess.Failure(description: "HTTP/2 was not negotiated (raw \(check.version), Courier \(courierCheck.metrics.protocolVersion.map(\.rawValue) ?? "unknown"))")
                }
                let contenders: [(String, InterleavedRun.Operation)] = [
                    ("raw_ahc", {
                        let response = try await raw.execute(HTTPClientRequest(url: pings.urlString()), timeout: .seconds(30))
                        let body = try await response.body.collect(upTo: 1 << 20)
                        _ = try decoder.decode(Ping.self, from: Data(body.readableBytesView))
                    }),
                    ("courier_ahc", { _ = try await courier.value(for: pings.request(Ping.self)) }),
                ]
                for (mode, concurrency, total) in [("sequential", 1, quick ? 2_000 : 10_000), ("concurrent_32", Self.concurrency, quick ? 10_000 : 40_000)] {
                    let run = InterleavedRun(rounds: Self.rounds, perRound: max(concurrency, total / Self.rounds), concurrency: concurrency)
                    let samples = try await run.run(contenders)
                    guard let courierSamples = samples["courier_ahc"], let rawSamples = samples["raw_ahc"],
                          let ratio = RoundRatios(courierSamples.rate, rawSamples.rate, rounds: zip(courierSamples.roundRates, rawSamples.roundRates)) else { continue }
                    results.set("h2.\(mode).courier_to_raw", (ratio.median * 1_000).rounded() / 1_000)
                    results.set("h2.\(mode).courier_to_raw_round_ratio.min", (ratio.lowest * 1_000).rounded() / 1_000)
                    results.set("h2.\(mode).courier_to_raw_round_ratio.max", (ratio.highest * 1_000).rounded() / 1_000)
                    results.set("h2.\(mode).raw_ahc.rps", (rawSamples.rate * 10).rounded() / 10)
                    results.set("h2.\(mode).courier_ahc.rps", (courierSamples.rate * 10).rounded() / 10)
                    print(String(
                        format: "  %@ (%d in flight): raw %.1f req/s, Courier %.1f req/s; Courier / raw per round: median %.3f, %.3f to %.3f",
                        mode as NSString, concurrency, rawSamples.rate, courierSamples.rate, ratio.median, ratio.lowest, ratio.highest
                    ))
                }
            } catch {
                try? await raw.shutdown()
                throw error
            }
            try await raw.shutdown()
        }
    }

    private func measureDrain(folder: URL, into results: inout BenchResults) async throws {
        let ca = folder.appendingPathComponent("ca-drain.pem")
        let requests = quick ? 2_000 : 5_000
        try await ServeProcess.run(["--tls", "--port", "0", "--debug-routes", "--ca-out", ca.path, "--goaway-after", "100"]) { url in
            let raw = try Self.rawClient(trusting: ca)
            let transport = AsyncHTTPClientTransport(configuration: .init(tls: TLSPolicy(trustRoots: .certificates(try Self.der(ca)))))
            do {
                let courier = APIClient(baseURL: url, transport: transport)
                let pings = DistinctPings(baseURL: url)
                let courierFailed = try await Self.failures(requests: requests) { _ = try await courier.send(pings.request(Data.self)) }
                let rawFailed = try await Self.failures(requests: requests) {
                    let response = try await raw.execute(HTTPClientRequest(url: pings.urlString()), timeout: .seconds(30))
                    _ = try await response.body.collect(upTo: 1 << 20)
                }
                struct GoAways: Decodable { var goaways: Int }
                let goaways = try await courier.value(for: Request<GoAways>(path: "/debug/http2/goaways")).goaways
                results.set("h2.goaway.requests", requests)
                results.set("h2.goaway.goaways", goaways)
                results.set("h2.goaway.failed", courierFailed)
                results.set("h2.goaway.raw_failed", rawFailed)
                print("  GOAWAY every 100 requests, \(requests) GETs each at \(Self.concurrency) in flight: Courier failed \(courierFailed), raw AsyncHTTPClient failed \(rawFailed); \(goaways) GOAWAYs in all")
            } catch {
                try? await raw.shutdown()
                try? await transport.shutdown()
                throw error
            }
            try await raw.shutdown()
            try await transport.shutdown()
        }
    }

    /// Runs `requests` calls at 32 in flight; returns how many threw.
    private static func failures(requests: Int, _ call: @escaping @Sendable () async throws -> Void) async throws -> Int {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            var started = 0
            var failed = 0
            for _ in 0..<min(concurrency, requests) {
                started += 1
                group.addTask { (try? await call()) == nil }
            }
            while let didFail = try await group.next() {
                if didFail { failed += 1 }
                if started < requests {
                    started += 1
                    group.addTask { (try? await call()) == nil }
                }
            }
            return failed
        }
    }

    /// Raw AsyncHTTPClient as a careful user sets it up for this server: its CA trusted,
    /// redirects not followed, HTTP/2 where offered (the default).
    private static func rawClient(trusting ca: URL) throws -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(ca.path))
        configuration.tlsConfiguration = tls
        // What AsyncHTTPClientTransport adds to every client it makes, so that Courier runs here
        // as users get it; both contenders share the client, so both carry its cost.
        configuration.classifyStreamsAboveGoAway()
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    private static func der(_ pem: URL) throws -> [Data] {
        try PEMCertificates.der(fromFile: pem.path)
    }
}
