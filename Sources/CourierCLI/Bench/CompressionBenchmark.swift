import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierCompression
import Foundation
import HTTPTypes
import NIOCore

/// A compressed JSON API response read by Courier beside raw AsyncHTTPClient with its own
/// decompression, and how much gzip saves on the wire each way.
///
/// The response: `GET /debug/encoded?count=1048576`, a 1 MiB JSON array of records that the
/// reference server gzips for a client that offers it (compressed once and kept, so that the
/// rounds measure the clients, not the server's compressor). Courier reads it with
/// `APIClient.send(_:)` for `Data` (decoded with compress-nio, a window at a time, as its
/// transport does for every compressed response); raw AsyncHTTPClient offers
/// `Accept-Encoding: gzip, deflate` and decodes with `decompression: .enabled` (NIO's
/// decompressor in the pipeline), collecting the body. Each on an `HTTPClient` of its own (raw
/// needs its decompression on, Courier needs it off), on the same event loops; one request at
/// a time, in turns, round after round, the order rotating.
///
/// The upload ratio: the same 1 MiB document, `POST /debug/echo` gzipped by
/// `GzipCompressor`, the server reporting the encoded length it read.
struct CompressionBenchmark {
    let baseURL: URL
    let quick: Bool

    static let documentBytes = 1 << 20

    func run(into results: inout BenchResults) async throws {
        let rounds = quick ? 3 : 10
        let perRound = quick ? 20 : 50
        var rawConfiguration = HTTPClient.Configuration()
        rawConfiguration.redirectConfiguration = .disallow
        rawConfiguration.decompression = .enabled(limit: .ratio(100))
        let raw = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: rawConfiguration)
        let transport = AsyncHTTPClientTransport()
        var configuration = ClientConfiguration(baseURL: baseURL)
        configuration.requestBodyCompressor = GzipCompressor()
        let client = APIClient(configuration: configuration, transport: transport)
        let target = baseURL.appendingPathComponent("debug/encoded").absoluteString + "?count=\(Self.documentBytes)"
        let bytes = Self.documentBytes
        print("\ncompression (a \(bytes >> 10) KiB JSON response, gzipped by the server; \(rounds) rounds of \(perRound) requests)")
        do {
            let response = try await client.send(Request<Data>(path: "/debug/encoded", query: [URLQueryItem(name: "count", value: "\(bytes)")]))
            guard response.value.count == bytes, let wire = response.metrics.wireBytesReceived else {
                throw CourierError(code: .invalidResponse, message: "the compressed response did not arrive compressed and whole")
            }
            let samples = try await InterleavedRun(rounds: rounds, perRound: perRound, concurrency: 1).run([
                ("raw_ahc", {
                    var request = HTTPClientRequest(url: target)
                    request.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
                    let answer = try await raw.execute(request, timeout: .seconds(30))
                    let body = try await answer.body.collect(upTo: 8 << 20)
                    guard body.readableBytes == bytes else { throw CourierError(code: .invalidResponse, message: "raw read \(body.readableBytes) bytes") }
                }),
                ("courier", {
                    let answer = try await client.send(Request<Data>(path: "/debug/encoded", query: [URLQueryItem(name: "count", value: "\(bytes)")]))
                    guard answer.value.count == bytes else { throw CourierError(code: .invalidResponse, message: "courier read \(answer.value.count) bytes") }
                }),
            ])
            func rate(_ name: String) -> Double {
                (samples[name]?.rate ?? 0) * Double(bytes) / Double(1 << 20)
            }
            let courierRate = rate("courier"), rawRate = rate("raw_ahc")
            results.set("compression.wire_bytes_ratio", Self.round3(Double(wire) / Double(bytes)))
            results.set("compression.courier_mb_per_s", Self.round1(courierRate))
            results.set("compression.raw_mb_per_s", Self.round1(rawRate))
            if let courier = samples["courier"], let rawSample = samples["raw_ahc"],
               let ratio = RoundRatios(courierRate, rawRate, rounds: zip(courier.roundRates, rawSample.roundRates)) {
                results.set("compression.ratio_to_raw", Self.round3(ratio.median))
                results.set("compression.ratio_to_raw_overall", Self.round3(ratio.overall))
                results.set("compression.ratio_to_raw_round_min", Self.round3(ratio.lowest))
                results.set("compression.ratio_to_raw_round_max", Self.round3(ratio.highest))
                print(String(format: "  decoded MB/s: courier %.1f, raw_ahc %.1f; courier / raw: median of rounds %.3f (%.3f to %.3f), whole run %.3f",
                             courierRate, rawRate, ratio.median, ratio.lowest, ratio.highest, ratio.overall))
            }
            print(String(format: "  on the wire: %d of %d bytes (%.3f)", wire, bytes, Double(wire) / Double(bytes)))

            var upload = Request<Data>(method: .post, path: "/debug/echo", body: .data(response.value, contentType: "application/json"))
            upload.options.compressesRequestBody = true
            let echoed = try await client.send(upload)
            guard echoed.value == response.value, let sent = echoed.headers[HTTPField.Name("X-Echo-Header-X-Encoded-Length")!].flatMap(Int.init), sent > 0 else {
                throw CourierError(code: .invalidResponse, message: "the compressed upload did not arrive whole")
            }
            results.set("compression.upload_wire_bytes_ratio", Self.round3(Double(sent) / Double(bytes)))
            print(String(format: "  upload on the wire: %d of %d bytes (%.3f)", sent, bytes, Double(sent) / Double(bytes)))
        } catch {
            try? await raw.shutdown()
            try? await transport.shutdown()
            throw error
        }
        try await raw.shutdown()
        try await transport.shutdown()
    }

    private static func round1(_ value: Double) -> Double { (value * 10).rounded() / 10 }
    private static func round3(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
