import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import Testing

@Suite("Resident memory stays flat during a large download", .timeLimit(.minutes(2)))
struct DownloadMemoryTests {
    /// The download's size: several times the allowed growth, small enough for a debug build
    /// that shares the machine with the other suites. `courier bench` measures 512 MB.
    static let size = 96 << 20
    /// The most the resident set may grow while it runs: a third of the download, so a body
    /// held in memory fails, with room for what the allocator, the in-process server and the
    /// suites running at the same time do. Alone, in a debug build, the growth is about 10 MB
    /// and does not grow with the size; `courier bench` (release) sees 0 to 3 MB for 512 MB.
    static let allowedGrowth = 32 << 20

    @Test(.enabled(if: ResidentMemory.current() != nil, "resident memory is read from /proc on Linux"))
    func aLargeDownloadDoesNotRaiseResidentMemoryByMoreThanAFewMegabytes() async throws {
        try await withTemporaryFolder { folder in
            try await withClient(.asyncHTTPClient) { client, _ in
                let request = Request<Data>(path: "/debug/blobs/large", query: [URLQueryItem(name: "size", value: "\(Self.size)")])
                let destination = folder.appendingPathComponent("large.bin")
                // Warm up: the connection, the pools and the allocator's arenas.
                let warmUp = Request<Data>(path: "/debug/blobs/large", query: [URLQueryItem(name: "size", value: "\(8 << 20)")])
                _ = try await client.download(warmUp, to: destination).value()

                let before = try #require(ResidentMemory.current())
                var highest = before
                let download = client.download(request, to: destination)
                for await _ in download.progress {
                    highest = max(highest, ResidentMemory.current() ?? highest)
                }
                let result = try await download.value()

                #expect(result.byteCount == Int64(Self.size))
                #expect(try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int == Self.size)
                let growth = highest - before
                #expect(growth < Self.allowedGrowth, "resident memory grew by \(growth >> 10) KiB during a \(Self.size >> 20) MiB download")
            }
        }
    }
}
