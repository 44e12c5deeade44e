import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation
import HTTPTypes

/// Throughput contenders that run only when `--contenders` names them. They take the cost of
/// Courier on AsyncHTTPClient apart, and calibrate what client-side work costs the ratio on
/// the machine at hand (where the client, the server and the engine's event loops share the
/// cores):
///
/// - `courier_ahc_transport_only`: Courier's AsyncHTTPClient transport on its own, sent a
///   hand-built `HTTPRequest`, with the body decoded as raw's is: no client, no chain.
/// - `courier_ahc_core`: the client with no middleware, no retry and no dedup (redirects only).
/// - `raw_ahc_busy_5us` … `raw_ahc_busy_30us`: raw AsyncHTTPClient that then keeps its thread
///   busy that long per request.
/// - `courier_ahc_on_loop`, `raw_ahc_on_loop`: each call run with a task executor preference
///   for one of the engine's event loops (in turn), so that the caller's code between the
///   engine's callbacks runs on NIO's threads rather than hopping to the global pool.
///
/// Each is reported with its ratio to `raw_ahc`, which must run beside it.
enum ThroughputDiagnostics {
    typealias Operation = InterleavedRun.Operation

    private struct Ping: Decodable, Sendable { var ok: Bool }

    /// The spans of busy work, in microseconds, of the calibration contenders.
    private static let busySpans = [5, 10, 15, 20, 30]

    /// The diagnostic contenders, by name.
    /// - Parameters:
    ///   - rawPing: Raw AsyncHTTPClient's operation, which the calibration contenders extend.
    ///   - transport: The transport on raw's `HTTPClient`.
    ///   - baseURL: The embedded server.
    ///   - pings: The shared source of distinct targets.
    static func contenders(
        rawPing: @escaping Operation,
        transport: AsyncHTTPClientTransport,
        baseURL: URL,
        pings: DistinctPings
    ) -> [(String, Operation)] {
        let core = APIClient(
            configuration: ClientConfiguration(baseURL: baseURL, middleware: [], deduplicatesRequests: false, retryPolicy: .none),
            transport: transport
        )
        let decoder = JSONDecoder()
        let scheme = baseURL.scheme ?? "http"
        let authority = baseURL.port.map { "\(baseURL.host ?? "127.0.0.1"):\($0)" } ?? baseURL.host ?? "127.0.0.1"
        var contenders: [(String, Operation)] = [
            ("courier_ahc_transport_only", {
                let request = HTTPRequest(method: .get, scheme: scheme, authority: authority, path: pings.pathAndQuery())
                let (_, body) = try await transport.send(request, body: nil, context: RequestContext(endpoint: "bench.ping"))
                _ = try decoder.decode(Ping.self, from: try await body?.collect(upTo: 1 << 20) ?? Data())
            }),
            ("courier_ahc_core", { _ = try await core.value(for: pings.request(Ping.self)) }),
        ]
        let loops = LoopExecutors(group: HTTPClient.defaultEventLoopGroup)
        let client = APIClient(baseURL: baseURL, transport: transport)
        contenders.append(("courier_ahc_on_loop", {
            try await withTaskExecutorPreference(loops.next()) { _ = try await client.value(for: pings.request(Ping.self)) }
        }))
        contenders.append(("raw_ahc_on_loop", {
            try await withTaskExecutorPreference(loops.next()) { try await rawPing() }
        }))
        for microseconds in busySpans {
            contenders.append(("raw_ahc_busy_\(microseconds)us", {
                try await rawPing()
                busyWait(.microseconds(microseconds))
            }))
        }
        return contenders
    }

    /// Keeps the calling thread busy for a span, reading the clock until it has passed.
    private static func busyWait(_ span: Duration) {
        let end = ContinuousClock.now.advanced(by: span)
        while ContinuousClock.now < end {}
    }
}
