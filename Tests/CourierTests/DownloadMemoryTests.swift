import Courier
import CourierTesting
import Foundation
import ReferenceServer
import Testing

@Suite("Resident memory stays flat during a large download")
struct DownloadMemoryTests {
    /// The download's size: large next to the allowed growth, small enough for a debug build.
    static let size = 200 << 20
    /// The most the downloading process's resident set may grow.
    static let allowedGrowth = 24 << 20

    /// The download runs in a `courier download-child` process of its own, so that what other
    /// suites allocate in this process at the same time does not count.
    @Test(.enabled(if: ResidentMemory.current() != nil, "resident memory is read from /proc on Linux"))
    func aLargeDownloadDoesNotRaiseResidentMemoryByMoreThanAFewMegabytes() async throws {
        try await checkFlatDownload(path: "/debug/blobs/large?size=\(Self.size)")
    }

    /// The same through the gzip decoder: 200 MiB of zeros, about 200 KB on the wire, decoded
    /// a window at a time into the file.
    @Test(.enabled(if: ResidentMemory.current() != nil, "resident memory is read from /proc on Linux"))
    func aCompressedDownloadIsDecodedIntoTheFileWithFlatMemory() async throws {
        try await checkFlatDownload(path: "/debug/encoded?count=\(Self.size)&shape=zeros&coding=gzip", arguments: ["--max-decompression-ratio", "5000"])
    }

    /// Downloads `path` (``size`` bytes) in a child process and checks the file and the
    /// child's resident memory growth.
    private func checkFlatDownload(path: String, arguments: [String] = []) async throws {
        try await withRunningServer { _, url in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-rss-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let destination = folder.appendingPathComponent("large.bin")
            let output = Pipe()
            let child = try startCourier(
                ["download-child", "--server", url.absoluteString, "--path", path, "--to", destination.path] + arguments,
                output: output
            )
            #expect(try await waitForExit(child, limit: .seconds(180)) == 0)
            let report = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let numbers = report.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
            try #require(numbers.count == 4, "unexpected report: \(report)")
            #expect(numbers[0] == Self.size)
            #expect(try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int == Self.size)
            #expect(numbers[1] < Self.allowedGrowth, "resident memory grew by \(numbers[1] >> 10) KiB during a \(Self.size >> 20) MiB download of \(path)")
        }
    }
}
