import ArgumentParser
import Courier
import Crypto
import Foundation
import HTTPTypes

/// `courier download URL -o FILE`: a file through Courier's chain, with progress, resumption
/// (within the run, and of a partial file an interrupted run left) and an optional SHA-256 check.
struct DownloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Download a URL to a file, with progress, resumption and an optional SHA-256 check.",
        discussion: """
        A broken download is resumed with Range and If-Range (up to --resume-attempts times in a \
        row without progress), and a partial file left by an interrupted run is resumed by the \
        next one for the same URL and file. Progress goes to standard error: a bar with the rate \
        and the time left on a terminal, a line every 10% otherwise.
        """
    )

    @Argument(help: "The URL (http or https).")
    var url: String

    @Option(name: [.customShort("o"), .customLong("output")], help: "The file to write.")
    var output: String

    @Option(help: "The file's expected SHA-256, in hex: a file that does not match is removed and the command fails.")
    var sha256: String?

    @Option(name: [.customShort("H"), .customLong("header")], help: "A request header, 'Name: value' (repeatable).")
    var headers: [String] = []

    @Option(help: "A bearer token for this URL's origin.")
    var bearer: String?

    @Option(help: "The engine: ahc (AsyncHTTPClient) or urlsession.")
    var transport: HTTPCallTransport = .ahc

    @Option(help: "Seconds one attempt may take (the whole body included).")
    var timeout: Double = 600

    @Option(help: "Resumptions in a row without progress before giving up.")
    var resumeAttempts: Int = 3

    func run() async throws {
        let status = await Self.run(self, progress: .standard)
        if status != 0 { throw ExitCode(status) }
    }

    /// Where progress goes, and whether it is a terminal.
    struct ProgressOutput: Sendable {
        var write: @Sendable (String) -> Void
        var isTerminal: Bool

        static let standard = ProgressOutput(write: { FileHandle.standardError.write(Data($0.utf8)) }, isTerminal: isatty(STDERR_FILENO) == 1)
    }

    /// Runs the download; 0 when the file is whole (and matches `--sha256`), 1 for a typed
    /// failure or a digest that does not match, 2 for bad options.
    static func run(_ command: DownloadCommand, progress: ProgressOutput, credentials: URL = HTTPCallPlan.defaultCredentialsFolder) async -> Int32 {
        do {
            var options = try HTTPCallOptions.parse([command.url])
            options.headers = command.headers
            options.bearer = command.bearer
            options.timeout = command.timeout
            let plan = try HTTPCallPlan(method: .get, options: options, credentials: credentials)
            let request = try await plan.request()
            let destination = URL(fileURLWithPath: command.output)
            let managed = command.transport.make()
            var configuration = ClientConfiguration(baseURL: plan.origin)
            configuration.timeout = request.options.timeout
            let client = APIClient(configuration: configuration, transport: managed.transport)
            let download = client.download(request, to: destination, options: DownloadOptions(resumeAttempts: max(0, command.resumeAttempts)))
            var meter = ProgressMeter(isTerminal: progress.isTerminal)
            for await step in download.progress {
                if let line = meter.line(for: step) { progress.write(line) }
            }
            let result: DownloadResult
            do {
                result = try await download.value()
                await managed.shutdown()
            } catch {
                await managed.shutdown()
                throw error
            }
            if progress.isTerminal { progress.write("\n") }
            let resumed = result.resumes > 0 ? ", resumed \(result.resumes) time(s)" : ""
            progress.write("\(result.byteCount) bytes written to \(destination.path)\(resumed)\n")
            if let expected = command.sha256?.lowercased() {
                let actual = try Self.sha256(of: destination)
                guard actual == expected else {
                    try? FileManager.default.removeItem(at: destination)
                    progress.write("courier: the file's SHA-256 is \(actual), not \(expected); it was removed\n")
                    return 1
                }
                progress.write("SHA-256 matches\n")
            }
            return 0
        } catch {
            return HTTPCall.failure(error) { progress.write($0 + "\n") }
        }
    }

    /// The file's SHA-256 in hex, read a MiB at a time.
    static func sha256(of url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var hasher = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(data: chunk) }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }
}

/// Turns progress steps into what a person reads: a bar redrawn in place with the rate and
/// the time left on a terminal, a line every 10% (or every 16 MiB when the size is unknown)
/// otherwise.
struct ProgressMeter {
    let isTerminal: Bool
    let started = ContinuousClock.now
    private var lastDrawn = ContinuousClock.now - .seconds(1)
    private var lastReported: Int64 = -1

    init(isTerminal: Bool) {
        self.isTerminal = isTerminal
    }

    mutating func line(for step: TransferProgress) -> String? {
        let now = ContinuousClock.now
        let seconds = max(0.001, (now - started).timeInterval)
        let rate = Double(step.completedBytes) / seconds
        if isTerminal {
            guard step.isComplete || now - lastDrawn >= .milliseconds(100) else { return nil }
            lastDrawn = now
            let width = 30
            let filled = step.fractionCompleted.map { Int($0 * Double(width)) } ?? 0
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            let percent = step.fractionCompleted.map { String(format: "%3.0f%%", $0 * 100) } ?? "  ?%"
            let left = step.totalBytes.map { total in rate > 0 ? Self.duration(Double(total - step.completedBytes) / rate) : "?" } ?? "?"
            return "\r[\(bar)] \(percent) \(Self.megabytes(step.completedBytes)) at \(Self.megabytes(Int64(rate)))/s, \(left) left"
        }
        // Int64.max: the complete line was written; nothing follows it.
        guard lastReported != Int64.max else { return nil }
        let bucket: Int64 = step.totalBytes.map { total in total > 0 ? step.completedBytes * 10 / total : 0 } ?? step.completedBytes / (16 << 20)
        guard bucket != lastReported || step.isComplete else { return nil }
        lastReported = step.isComplete ? Int64.max : bucket
        let total = step.totalBytes.map { " of \(Self.megabytes($0))" } ?? ""
        return "\(Self.megabytes(step.completedBytes))\(total) at \(Self.megabytes(Int64(rate)))/s\n"
    }

    static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f MB", Double(bytes) / Double(1 << 20))
    }

    static func duration(_ seconds: Double) -> String {
        seconds < 60 ? String(format: "%.0f s", seconds) : String(format: "%d min %02d s", Int(seconds) / 60, Int(seconds) % 60)
    }
}
