@testable import CourierCLI
import Courier
import Crypto
import Foundation
import ReferenceServer
import Synchronization
import Testing

/// What one `courier download` run wrote on standard error.
private final class ProgressLines: Sendable {
    private let text = Mutex("")
    var all: String { text.withLock { $0 } }
    var output: DownloadCommand.ProgressOutput {
        DownloadCommand.ProgressOutput(write: { line in self.text.withLock { $0 += line } }, isTerminal: false)
    }
}

@Suite("courier download: progress, resumption and a digest check", .timeLimit(.minutes(2)))
struct DownloadCommandTests {
    private static let size = 3 << 20

    private func withFolder<T>(_ body: (URL) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-download-cmd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder)
    }

    private func run(_ arguments: [String]) async throws -> (Int32, String) {
        let lines = ProgressLines()
        let command = try DownloadCommand.parse(arguments)
        let status = await DownloadCommand.run(command, progress: lines.output, credentials: FileManager.default.temporaryDirectory.appendingPathComponent("courier-no-credentials"))
        return (status, lines.all)
    }

    @Test(arguments: HTTPCallTransport.allCases)
    func aFileArrivesWholeWithProgressLinesAndItsDigestChecked(transport: HTTPCallTransport) async throws {
        try await withFolder { folder in
            try await withReferenceServer { url in
                let source = url.absoluteString + "/debug/blobs/cmd?size=\(Self.size)"
                let file = folder.appendingPathComponent("blob.bin")
                let (status, progress) = try await run([source, "-o", file.path, "--transport", transport.rawValue])
                #expect(status == 0, "\(progress)")
                let data = try Data(contentsOf: file)
                #expect(data.count == Self.size)
                #expect(progress.contains("3.0 MB of 3.0 MB at "), "a line per 10%, the last at the total: \(progress)")
                let digest = SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()

                let checked = folder.appendingPathComponent("checked.bin")
                let (matched, matchLines) = try await run([source, "-o", checked.path, "--sha256", digest.uppercased(), "--transport", transport.rawValue])
                #expect(matched == 0 && matchLines.contains("SHA-256 matches"))
                let wrong = folder.appendingPathComponent("wrong.bin")
                let (mismatched, mismatchLines) = try await run([source, "-o", wrong.path, "--sha256", String(repeating: "0", count: 64)])
                #expect(mismatched == 1)
                #expect(mismatchLines.contains("it was removed"))
                #expect(!FileManager.default.fileExists(atPath: wrong.path))
            }
        }
    }

    @Test func aCutDownloadIsResumedAndSaysSo() async throws {
        try await withFolder { folder in
            try await withRunningServer { server, url in
                server.bodyFaults.dropConnection(afterBodyBytes: 1 << 20, path: "/debug/blobs/cut")
                let file = folder.appendingPathComponent("cut.bin")
                let (status, progress) = try await run([url.absoluteString + "/debug/blobs/cut?size=\(Self.size)", "-o", file.path])
                #expect(status == 0, "\(progress)")
                #expect(progress.contains("resumed 1 time(s)"), "\(progress)")
                #expect(try Data(contentsOf: file).count == Self.size)
            }
        }
    }

    @Test func aFailureExitsNonZeroWithTheTypedError() async throws {
        try await withFolder { folder in
            let (status, progress) = try await run(["http://127.0.0.1:1/file", "-o", folder.appendingPathComponent("x").path, "--resume-attempts", "0"])
            #expect(status == 1)
            #expect(progress.hasPrefix("courier: cannotConnect: "), "\(progress)")
        }
    }

    @Test func theTerminalMeterDrawsABarWithRateAndTimeLeft() {
        var meter = ProgressMeter(isTerminal: true)
        let line = meter.line(for: TransferProgress(completedBytes: 1 << 20, totalBytes: 4 << 20))
        #expect(line?.hasPrefix("\r[#######-----------------------]  25% 1.0 MB at ") == true, "\(String(describing: line))")
        #expect(line?.hasSuffix(" left") == true)

        var plain = ProgressMeter(isTerminal: false)
        let steps: [Int64] = [0, 100, 500_000, 1_000_000, 1_000_000, 1_000_000]
        let lines = steps.compactMap { plain.line(for: TransferProgress(completedBytes: $0, totalBytes: 1_000_000)) }
        #expect(lines.count == 3, "0%, 50%, then the complete line once: \(lines)")
    }
}
