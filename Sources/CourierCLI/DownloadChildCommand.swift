import ArgumentParser
import Courier
import CourierAsyncHTTPClient
import CourierTesting
import CourierURLSession
import Foundation

/// `courier download-child`: downloads a URL to a file with Courier, or fetches it into memory,
/// and prints how much its resident memory grew, for the memory tests, which need a process
/// of their own to measure. Hidden.
///
/// Prints one line of `key value` pairs: `bytes N growth N progress N early N` for a download
/// (`early`: progress steps that came before the last byte), `error CODE growth N` for a
/// fetch that failed, `bytes N growth N` for one that did not.
struct DownloadChildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download-child",
        abstract: "Download a URL to a file and print the resident-memory growth (memory test helper).",
        shouldDisplay: false
    )

    enum Engine: String, ExpressibleByArgument, CaseIterable {
        case ahc, urlsession
    }

    @Option(help: "The server's base URL.")
    var server: String
    @Option(help: "The path to download.")
    var path: String
    @Option(help: "The destination file (download only).")
    var to: String?
    @Option(help: "The engine: ahc or urlsession.")
    var engine: Engine = .ahc
    @Flag(help: "Fetch the body into memory with the default response limit instead of downloading it.")
    var fetch = false
    @Option(help: "The decompression ratio the download allows (for a compressed body of zeros).")
    var maxDecompressionRatio: Int?

    func run() async throws {
        guard let url = URL(string: server) else { throw ValidationError("not a URL: \(server)") }
        switch engine {
        case .ahc:
            let transport = AsyncHTTPClientTransport()
            do {
                try await measure(APIClient(baseURL: url, transport: transport))
                try await transport.shutdown()
            } catch {
                try? await transport.shutdown()
                throw error
            }
        case .urlsession:
            try await measure(APIClient(baseURL: url, transport: URLSessionTransport()))
        }
    }

    private func measure(_ client: APIClient) async throws {
        let warmUp = FileManager.default.temporaryDirectory.appendingPathComponent("courier-warm-up-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: warmUp) }
        // Warm up the connection, the pools and the allocator's arenas with a small download.
        _ = try await client.download(Request<Data>(path: "/debug/blobs/large?size=\(8 << 20)"), to: warmUp).value()
        guard let before = ResidentMemory.current() else { throw ValidationError("resident memory cannot be read here") }
        if fetch {
            let sampler = Task {
                var highest = before
                while !Task.isCancelled {
                    highest = max(highest, ResidentMemory.current() ?? highest)
                    try? await Task.sleep(for: .milliseconds(5))
                }
                return highest
            }
            do {
                let response = try await client.send(Request<Data>(path: path))
                sampler.cancel()
                print("bytes \(response.value.count) growth \(await sampler.value - before)")
            } catch let error as CourierError {
                sampler.cancel()
                print("error \(error.code) growth \(await sampler.value - before)")
            }
            return
        }
        guard let to else { throw ValidationError("--to is required for a download") }
        var highest = before
        var steps = 0
        var early = 0
        var request = Request<Data>(path: path)
        request.options.maxDecompressionRatio = maxDecompressionRatio
        let download = client.download(request, to: URL(fileURLWithPath: to))
        for await step in download.progress {
            highest = max(highest, ResidentMemory.current() ?? highest)
            steps += 1
            if let total = step.totalBytes, step.completedBytes < total { early += 1 }
        }
        let result = try await download.value()
        print("bytes \(result.byteCount) growth \(highest - before) progress \(steps) early \(early)")
    }
}
