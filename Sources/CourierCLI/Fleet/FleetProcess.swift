import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A `courier fleet-worker` child: its output lines as they come (with when), and its end.
///
/// `Sendable`: a `final class` whose mutable state sits in a `Mutex`.
final class FleetProcess: Sendable {
    private struct State {
        var lines: [(at: Date, text: String)] = []
        var partial = Data()
        var exitStatus: Int32?
        var exitWaiters: [CheckedContinuation<Int32, Never>] = []
    }

    let process: Process
    let name: String
    private let state = Mutex(State())

    /// Starts `courier fleet-worker` with arguments.
    init(name: String, arguments: [String], environment: [String: String] = [:]) throws {
        self.name = name
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["fleet-worker"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            self.state.withLock { state in
                state.partial.append(data)
                while let newline = state.partial.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: state.partial[state.partial.startIndex..<newline], as: UTF8.self)
                    state.partial.removeSubrange(state.partial.startIndex...newline)
                    state.lines.append((Date(), line))
                }
            }
            if data.isEmpty { handle.readabilityHandler = nil }
        }
        process.terminationHandler = { process in
            let waiters = self.state.withLock { state in
                state.exitStatus = process.terminationStatus
                defer { state.exitWaiters = [] }
                return state.exitWaiters
            }
            for waiter in waiters { waiter.resume(returning: process.terminationStatus) }
        }
        try process.run()
    }

    /// The lines printed so far.
    var lines: [(at: Date, text: String)] { state.withLock { $0.lines } }

    /// Waits for the process to end.
    func exit() async -> Int32 {
        await withCheckedContinuation { continuation in
            let status: Int32? = state.withLock { state in
                if let status = state.exitStatus { return status }
                state.exitWaiters.append(continuation)
                return nil
            }
            if let status { continuation.resume(returning: status) }
        }
    }

    /// Sends a signal (SIGKILL to simulate a crash, SIGTERM to stop).
    func signal(_ number: Int32) {
        if process.isRunning { kill(process.processIdentifier, number) }
    }
}
