import ArgumentParser
import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation

/// `courier bench-transfer-child`: one transfer by one contender of ``TransferBenchmark``, in a
/// process of its own, printing how far the process's peak resident set grew for it: the
/// client's memory alone, without the benchmark's or the server's. Hidden.
struct TransferChildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-transfer-child",
        abstract: "Run one benchmark transfer and print the peak resident-memory growth (bench helper).",
        shouldDisplay: false
    )

    @Option(help: "The server's base URL.")
    var server: String
    @Option(help: "raw_ahc, courier, raw_urlsession or courier_urlsession.")
    var contender: String
    @Option(help: "download or upload.")
    var kind: String
    @Option(help: "The transfer's size in bytes.")
    var bytes: Int

    func validate() throws {
        guard ["raw_ahc", "courier", "raw_urlsession", "courier_urlsession"].contains(contender) else {
            throw ValidationError("--contender is raw_ahc, courier, raw_urlsession or courier_urlsession")
        }
        guard ["download", "upload"].contains(kind) else { throw ValidationError("--kind is download or upload") }
        guard bytes > 0, bytes.isMultiple(of: 1 << 20) else { throw ValidationError("--bytes is a positive number of whole MB") }
    }

    func run() async throws {
        guard let url = URL(string: server) else { throw ValidationError("not a URL: \(server)") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-bench-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = TransferBenchmark.makeRawClient()
        let transport = AsyncHTTPClientTransport(sharing: raw)
        do {
            let growth = try await measure(url, raw: raw, transport: transport, folder: folder)
            print("peak_rss_growth \(growth)")
            try await raw.shutdown()
        } catch {
            try? await raw.shutdown()
            throw error
        }
    }

    /// A warm-up transfer of 8 MB (connections, pools, the allocator's arenas), then the
    /// measured one; returns the peak's growth over the resident set before it, in bytes.
    private func measure(_ url: URL, raw: HTTPClient, transport: AsyncHTTPClientTransport, folder: URL) async throws -> Int {
        let warmSource = folder.appendingPathComponent("warm-up.bin")
        try TransferBenchmark.writeFile(warmSource, bytes: 8 << 20)
        let source = folder.appendingPathComponent("upload.bin")
        if kind == "upload" { try TransferBenchmark.writeFile(source, bytes: bytes) }
        let client = TransferBenchmark.makeClient(baseURL: url, transport: transport)
        let warmUp = TransferContenders(baseURL: url, raw: raw, client: client, folder: folder, source: warmSource, bytes: 8 << 20)
        let measured = TransferContenders(baseURL: url, raw: raw, client: client, folder: folder, source: source, bytes: bytes)
        let sessions = URLSessionTransferContenders.make(baseURL: url, folder: folder, source: warmSource, bytes: 8 << 20)
        defer { sessions.invalidate() }
        try await run(warmUp, sessions)
        guard let before = ResidentMemory.current(), ResidentMemory.resetPeak() else {
            throw ValidationError("resident memory cannot be measured here (Linux's /proc is needed)")
        }
        try await run(measured, sessions.with(source: source, bytes: bytes))
        return max(0, (ResidentMemory.peak() ?? before) - before)
    }

    private func run(_ contenders: TransferContenders, _ sessions: URLSessionTransferContenders) async throws {
        switch (contender, kind) {
        case ("courier", "download"): try await contenders.courierDownload()
        case ("courier", _): try await contenders.courierUpload()
        case ("raw_ahc", "download"): try await contenders.rawDownload()
        case ("raw_ahc", _): try await contenders.rawUpload()
        case ("courier_urlsession", "download"): try await sessions.courierDownload()
        case ("courier_urlsession", _): try await sessions.courierUpload()
        case (_, "download"): try await sessions.rawDownload()
        default: try await sessions.rawUpload()
        }
    }
}
