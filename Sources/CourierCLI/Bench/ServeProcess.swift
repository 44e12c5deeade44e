import Foundation
import Synchronization

/// A `courier serve` in a process of its own, for benchmarks that keep the server's work off
/// the measured process: started with the given arguments, used while its URL is known, and
/// ended on every path.
enum ServeProcess {
    /// Why the server could not be used.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts the server, waits for the line that says where it listens, runs `body` with that
    /// URL, then stops the server (SIGTERM, then waits for it).
    static func run(_ arguments: [String], _ body: (URL) async throws -> Void) async throws {
        let process = Process()
        process.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["serve"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let (lines, continuation) = AsyncStream.makeStream(of: String.self)
        let buffer = Mutex("")
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            guard !data.isEmpty else {
                continuation.finish()
                handle.readabilityHandler = nil
                return
            }
            let complete = buffer.withLock { text -> [String] in
                text += String(decoding: data, as: UTF8.self)
                var parts = text.components(separatedBy: "\n")
                text = parts.removeLast()
                return parts
            }
            for line in complete { continuation.yield(line) }
        }
        process.terminationHandler = { _ in continuation.finish() }
        try process.run()
        var url: URL?
        for await line in lines {
            if let range = line.range(of: "listening on ") {
                url = URL(string: String(line[range.upperBound...]).trimmingCharacters(in: .whitespaces))
                break
            }
        }
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        guard let url else { throw Failure(description: "courier serve \(arguments.joined(separator: " ")) did not say where it listens") }
        try await body(url)
    }
}
