import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierURLSession
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import NIOCore
import NIOHTTP1

/// Requests per second and latency of a small JSON GET, for raw engines and Courier on them.
///
/// Every contender does the same work per request: send `GET /debug/ping?n=<counter>` (a
/// different URL each time, so Courier's dedup cannot share calls), read the whole body, and
/// decode it as JSON. The contenders take turns in rounds, so a noisy moment of
/// the machine falls on all of them alike. Courier runs its default chain.
///
/// Beside requests per second, each contender's figures include the process CPU time and
/// context switches per request: with the embedded server, client, server and kernel together
/// (the server shares the process and the two cores); with `--server`, the client process's
/// alone. `raw_ahc_same_headers` sends the fields Courier's default chain
/// adds on AsyncHTTPClient (`Accept`, `User-Agent`, `X-Request-ID`, `Accept-Encoding`), so the
/// share of the gap that the embedded server's work on them accounts for can be read off the
/// same run.
///
/// Contenders that take Courier's cost apart, or calibrate what client-side work costs the
/// ratio, run only when named: see ``ThroughputDiagnostics``.
///
/// Courier on AsyncHTTPClient runs on the raw contender's own `HTTPClient`: the same pool and
/// the same connections. With the server in the same process, which event loop a pooled
/// connection lands on (beside its server end, or across from it) moves throughput by up to
/// 40% between two identical raw clients, so contenders with pools of their own measure where
/// their connections happened to land rather than the code between the caller and the engine.
///
/// Courier on URLSession runs as an app gets it by default, on `URLSessionTransport()`: a
/// session of its own, ephemeral like raw's, whose delegate streams bodies and, on Linux,
/// runs on swift-corelibs-foundation's work queue (see `URLSessionTransport`). No event
/// loop of this process carries a URLSession connection, so the placement above does not
/// apply to it. That session keeps no `URLCache` and no cookie storage, which raw's default
/// session does and pays for on every request; `raw_urlsession_no_stores`, a diagnostic, is raw
/// on a session configured the same way. `courier_urlsession_shared_session`, another, runs the
/// transport on raw's session instead, as an app that injects its session gets it.
struct ThroughputBenchmark {
    let baseURL: URL
    let quick: Bool
    /// The contenders to run, by name; all of them when `nil`.
    var only: Set<String>? = nil
    /// Whether the server runs in this process (its work then counts in the CPU figures).
    var serverInProcess = true

    private struct Ping: Decodable, Sendable { var ok: Bool }

    /// `--contenders` named one that does not exist.
    struct UnknownContender: Error, CustomStringConvertible {
        let name: String
        let known: [String]
        var description: String { "no throughput contender is named \(name); the contenders are \(known.joined(separator: ", "))" }
    }

    private typealias Operation = InterleavedRun.Operation

    private static let concurrency = 32
    private static let rounds = 20

    func run(into results: inout BenchResults) async throws {
        let rawClient = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: Self.rawConfiguration()
        )
        // The raw client's pool, shared: see the type's documentation.
        let ahcTransport = AsyncHTTPClientTransport(sharing: rawClient)
        let session = URLSession(configuration: .ephemeral)
        let courierAHC = APIClient(baseURL: baseURL, transport: ahcTransport)
        // What `URLSessionTransport()` makes by default (see the type's documentation).
        let urlSessionTransport = URLSessionTransport(configuration: .ephemeral)
        let courierURLSession = APIClient(baseURL: baseURL, transport: urlSessionTransport)
        let courierBare = APIClient(
            configuration: ClientConfiguration(baseURL: baseURL, middleware: [], retryPolicy: .none),
            transport: ahcTransport
        )
        let pings = DistinctPings(baseURL: baseURL)

        // What a careful user of each engine writes: one decoder for every call, and the
        // body's bytes copied into `Data` in one step (as Courier's transport copies them).
        let decoder = JSONDecoder()
        let rawPing: Operation = {
            let response = try await rawClient.execute(HTTPClientRequest(url: pings.urlString()), timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 1 << 20)
            _ = try decoder.decode(Ping.self, from: Self.data(body))
        }
        let allContenders: [(String, Operation)] = [
            ("raw_ahc", rawPing),
            ("raw_ahc_same_headers", {
                var request = HTTPClientRequest(url: pings.urlString())
                request.headers.add(name: "Accept", value: "application/json")
                request.headers.add(name: "User-Agent", value: DefaultHeadersMiddleware.defaultUserAgent)
                request.headers.add(name: "X-Request-ID", value: RequestContext.makeRequestID())
                request.headers.add(name: "Accept-Encoding", value: ContentCoding.acceptEncoding)
                let response = try await rawClient.execute(request, timeout: .seconds(30))
                let body = try await response.body.collect(upTo: 1 << 20)
                _ = try decoder.decode(Ping.self, from: Self.data(body))
            }),
            ("courier_ahc", { _ = try await courierAHC.value(for: pings.request(Ping.self)) }),
            ("courier_ahc_bare_chain", { _ = try await courierBare.value(for: pings.request(Ping.self)) }),
            ("raw_urlsession", {
                let (data, _) = try await session.data(for: URLRequest(url: URL(string: pings.urlString())!))
                _ = try decoder.decode(Ping.self, from: data)
            }),
            ("courier_urlsession", { _ = try await courierURLSession.value(for: pings.request(Ping.self)) }),
        ]

        // The client with no middleware, no retry and no dedup (redirects only), on the
        // contender's transport: what the client itself costs between the caller and the transport.
        let courierURLSessionCore = APIClient(
            configuration: ClientConfiguration(baseURL: baseURL, middleware: [], deduplicatesRequests: false, retryPolicy: .none),
            transport: urlSessionTransport
        )
        // Courier on a URLSessionTransport injected with the raw contender's session, where the
        // contender above has a session of its own: on Linux, each task then completes through
        // a handler on that session's delegate `OperationQueue`. A diagnostic, beside raw URLSession.
        let courierSharedSession = APIClient(baseURL: baseURL, transport: URLSessionTransport(session: session))
        // Raw URLSession on a session configured as `URLSessionTransport()` configures its own:
        // no `URLCache` and no cookie storage, which the default raw contender keeps.
        let storelessSession = URLSession(configuration: URLSessionTransport.withoutStores(.ephemeral))
        let scheme = baseURL.scheme ?? "http"
        let authority = baseURL.port.map { "\(baseURL.host ?? "127.0.0.1"):\($0)" } ?? baseURL.host ?? "127.0.0.1"
        let urlSessionDiagnostics: [(String, Operation)] = [
            ("courier_urlsession_core", { _ = try await courierURLSessionCore.value(for: pings.request(Ping.self)) }),
            ("courier_urlsession_shared_session", { _ = try await courierSharedSession.value(for: pings.request(Ping.self)) }),
            // The contender's transport on its own (its session, as `URLSessionTransport()`
            // makes it), sent a hand-built `HTTPRequest`, the body decoded as raw's is: no
            // client, no chain, none of the fields the chain adds.
            ("courier_urlsession_transport_only", {
                let request = HTTPRequest(method: .get, scheme: scheme, authority: authority, path: pings.pathAndQuery())
                let (_, body) = try await urlSessionTransport.send(request, body: nil, context: RequestContext(endpoint: "bench.ping"))
                _ = try decoder.decode(Ping.self, from: try await body?.collect(upTo: 1 << 20) ?? Data())
            }),
            // Raw URLSession sending the fields Courier's default chain sends (`Accept`,
            // `User-Agent`, `X-Request-ID`, `Accept-Encoding`), set in one step: what those
            // fields cost swift-corelibs-foundation, libcurl and the server.
            // Raw `data(for:)` without the stores a default session keeps: what they cost
            // swift-corelibs-foundation per request, and the engine beside Courier's transport
            // with the same configuration.
            ("raw_urlsession_no_stores", {
                let (data, _) = try await storelessSession.data(for: URLRequest(url: URL(string: pings.urlString())!))
                _ = try decoder.decode(Ping.self, from: data)
            }),
            ("raw_urlsession_same_headers", {
                var request = URLRequest(url: URL(string: pings.urlString())!)
                request.allHTTPHeaderFields = [
                    "Accept": "application/json",
                    "User-Agent": DefaultHeadersMiddleware.defaultUserAgent,
                    "X-Request-ID": RequestContext.makeRequestID(),
                    "Accept-Encoding": ContentCoding.acceptEncoding,
                ]
                let (data, _) = try await session.data(for: request)
                _ = try decoder.decode(Ping.self, from: data)
            }),
            // Raw URLSession through a data task with a completion handler, as any client that
            // keeps the task (to cancel it at a deadline, or to decline redirects) must call it
            // on Linux: swift-corelibs-foundation calls `data(for:)`'s completion inline on the
            // session's work queue (a flag of its own, not public), every other completion
            // through the session's delegate `OperationQueue`.
            ("raw_urlsession_task_handler", {
                let data: Data = try await withCheckedThrowingContinuation { continuation in
                    session.dataTask(with: URLRequest(url: URL(string: pings.urlString())!)) { data, _, error in
                        if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: data ?? Data()) }
                    }.resume()
                }
                _ = try decoder.decode(Ping.self, from: data)
            }),
        ]
        let diagnostics = ThroughputDiagnostics.contenders(rawPing: rawPing, transport: ahcTransport, baseURL: baseURL, pings: pings)
            + urlSessionDiagnostics

        let known = (allContenders + diagnostics).map(\.0)
        if let only, let unknown = only.subtracting(known).sorted().first {
            throw UnknownContender(name: unknown, known: known)
        }
        let contenders = allContenders.filter { only?.contains($0.0) ?? true } + diagnostics.filter { only?.contains($0.0) ?? false }
        defer {
            session.invalidateAndCancel()
            storelessSession.invalidateAndCancel()
        }
        do {
            let sequentialCount = quick ? 1_000 : 5_000
            let concurrentCount = quick ? 4_000 : 20_000
            // Each Courier contender beside its engine's raw one; each diagnostic beside raw AsyncHTTPClient.
            let pairs = [("courier_ahc", "raw_ahc"), ("courier_urlsession", "raw_urlsession")]
                + diagnostics.map { ($0.0, $0.0.contains("urlsession") ? "raw_urlsession" : "raw_ahc") }
            try await runMode("sequential", contenders, pairs: pairs, total: sequentialCount, concurrency: 1, into: &results)
            try await runMode("concurrent_32", contenders, pairs: pairs, total: concurrentCount, concurrency: Self.concurrency, into: &results)
        } catch {
            try? await rawClient.shutdown()
            throw error
        }
        try await rawClient.shutdown()
    }

    private func runMode(
        _ mode: String,
        _ contenders: [(String, Operation)],
        pairs: [(contender: String, raw: String)],
        total: Int,
        concurrency: Int,
        into results: inout BenchResults
    ) async throws {
        let run = InterleavedRun(rounds: Self.rounds, perRound: max(concurrency, total / Self.rounds), concurrency: concurrency)
        let samples = try await run.run(contenders)
        let cpuScope = serverInProcess ? "client and server" : "client process only"
        print("\n\(mode) (\(run.perRound * run.rounds) requests each, \(concurrency) in flight; CPU: \(cpuScope))")
        for (name, _) in contenders {
            guard let sample = samples[name] else { continue }
            let prefix = "throughput.\(mode).\(name)"
            results.set("\(prefix).rps", (sample.rate * 10).rounded() / 10)
            results.set("\(prefix).p50_ms", Self.round3(sample.percentileMilliseconds(0.5)))
            results.set("\(prefix).p99_ms", Self.round3(sample.percentileMilliseconds(0.99)))
            results.set("\(prefix).cpu_us_per_request", (sample.cpuMicrosecondsPerOperation * 10).rounded() / 10)
            results.set("\(prefix).context_switches_per_request", Self.round3(sample.contextSwitchesPerOperation))
            results.set("\(prefix).requests", sample.count)
            print(String(
                format: "  %-22@ %9.1f req/s   p50 %7.3f ms   p99 %7.3f ms   cpu %6.1f µs/req   %4.2f switches/req",
                name as NSString, sample.rate, sample.percentileMilliseconds(0.5), sample.percentileMilliseconds(0.99),
                sample.cpuMicrosecondsPerOperation, sample.contextSwitchesPerOperation
            ))
        }
        for (contender, raw) in pairs {
            guard let contenderSamples = samples[contender], let rawSamples = samples[raw] else { continue }
            let key = "throughput.\(mode).\(contender)_to_\(raw)"
            // Both ratios read "1 is as cheap as raw; less is dearer": the contender's rate over
            // raw's, and raw's CPU time per request over the contender's.
            let ratios = [
                ("", "requests per second", RoundRatios(contenderSamples.rate, rawSamples.rate, rounds: zip(contenderSamples.roundRates, rawSamples.roundRates))),
                ("_cpu", "CPU per request (inverse)", RoundRatios(
                    rawSamples.cpuMicrosecondsPerOperation, contenderSamples.cpuMicrosecondsPerOperation,
                    rounds: zip(rawSamples.roundCPUPerOperation, contenderSamples.roundCPUPerOperation)
                )),
            ]
            for (suffix, label, ratio) in ratios {
                guard let ratio else { continue }
                results.set("\(key)\(suffix)_ratio", Self.round3(ratio.overall))
                results.set("\(key)\(suffix)_round_ratio.median", Self.round3(ratio.median))
                results.set("\(key)\(suffix)_round_ratio.min", Self.round3(ratio.lowest))
                results.set("\(key)\(suffix)_round_ratio.max", Self.round3(ratio.highest))
                results.set("\(key)\(suffix)_round_ratio.rounds", ratio.rounds)
                print(String(
                    format: "  %@ / %@, %@ = %.3f   per round: median %.3f, %.3f to %.3f over %d rounds",
                    contender as NSString, raw as NSString, label as NSString,
                    ratio.overall, ratio.median, ratio.lowest, ratio.highest, ratio.rounds
                ))
            }
        }
    }

    private static func rawConfiguration() -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: concurrency)
        return configuration
    }

    /// A buffer's readable bytes as `Data`, copied in one step: the cheapest copy there is.
    private static func data(_ buffer: ByteBuffer) -> Data {
        buffer.withUnsafeReadableBytes { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return Data() }
            return Data(bytes: base, count: bytes.count)
        }
    }

    private static func round3(_ value: Double) -> Double {
        (value * 1_000).rounded() / 1_000
    }
}
