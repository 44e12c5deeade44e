import ArgumentParser
import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation

/// `courier download-child`: downloads a URL to a file with Courier and prints how much its
/// resident memory grew, for the memory test, which needs a process of its own to measure. Hidden.
struct DownloadChildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download-child",
        abstract: "Download a URL to a file and print the resident-memory growth (memory test helper).",
        shouldDisplay: false
    )

    @Option(help: "The server's base URL.")
    var server: String
    @Option(help: "The path to download.")
    var path: String
    @Option(help: "The destination file.")
    var to: String

    func run() async throws {
        guard let url = URL(string: server) else { throw ValidationError("not a URL: \(server)") }
        let transport = AsyncHTTPClientTransport()
        do {
            let client = APIClient(baseURL: url, transport: transport)
            let destination = URL(fileURLWithPath: to)
            // Warm up the connection, the pools and the allocator's arenas with a small download.
            _ = try await client.download(Request<Data>(path: "/debug/blobs/large?size=\(8 << 20)"), to: destination).value()
            guard let before = ResidentMemory.current() else { throw ValidationError("resident memory cannot be read here") }
            var highest = before
            let download = client.download(Request<Data>(path: path), to: destination)
            for await _ in download.progress { highest = max(highest, ResidentMemory.current() ?? highest) }
            let result = try await download.value()
            print("bytes \(result.byteCount) growth \(highest - before)")
            try await transport.shutdown()
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }
}
