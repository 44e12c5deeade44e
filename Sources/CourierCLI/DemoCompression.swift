import Courier
import CourierCompression
import Foundation
import HTTPTypes

/// The compression part of the demo: a JSON response gzipped on the wire and decoded before
/// the app sees it, a bomb stopped by the ratio limit, and an upload sent gzipped.
struct DemoCompression {
    let baseURL: URL
    let transport: any Transport
    let report: DemoReport

    func run() async throws {
        print("\n── Compression: gzip on the wire, limits on what it inflates to")
        var configuration = ClientConfiguration(baseURL: baseURL)
        configuration.requestBodyCompressor = GzipCompressor()
        let client = APIClient(configuration: configuration, transport: transport)

        let count = 1 << 20
        let response = try await client.send(Request<Data>(path: "/debug/encoded", query: [URLQueryItem(name: "count", value: "\(count)")]))
        let wire = response.metrics.wireBytesReceived
        print("  a \(response.value.count >> 10) KiB JSON list came \(wire.map { "in \($0 >> 10) KiB of gzip" } ?? "gzipped (URLSession does not say how many bytes)"); the app sees it decoded, Content-Encoding: \(response.headers[.contentEncoding] ?? "none")")
        report.set("compression", "decoded_bytes", response.value.count)
        if let wire { report.set("compression", "wire_bytes", wire) }

        let bomb = Request<Data>(path: "/debug/encoded", query: [
            URLQueryItem(name: "count", value: "\(256 << 20)"), URLQueryItem(name: "shape", value: "zeros"), URLQueryItem(name: "coding", value: "gzip"),
        ])
        do {
            _ = try await client.send(bomb)
            print("  ✘ a 256 MiB bomb was accepted")
            report.add("compression", "bomb_accepted")
        } catch let error as CourierError {
            print("  a gzip bomb (256 MiB of zeros) stops with .\(error.code): \(error.message)")
            report.add("compression", error.code == .responseTooLarge ? "bomb_stopped" : "bomb_\(error.code)")
        }

        var upload = Request<Data>(method: .post, path: "/debug/echo", body: .data(response.value, contentType: "application/json"))
        upload.options.compressesRequestBody = true
        let echoed = try await client.send(upload)
        let sent = echoed.headers[HTTPField.Name("X-Echo-Header-X-Encoded-Length")!] ?? "?"
        print("  an upload of the same list went out gzipped in \(sent) bytes, and the server read it whole: \(echoed.value == response.value)")
        report.set("compression", "upload_wire_bytes", Int(sent) ?? 0)
    }
}
