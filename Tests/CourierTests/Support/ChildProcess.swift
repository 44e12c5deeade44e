import Courier
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `courier` executable built beside this test bundle.
func courierExecutable() throws -> URL {
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    for candidate in [beside, beside.deletingLastPathComponent()] {
        let url = candidate.appendingPathComponent("courier")
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    throw CourierError(code: .invalidRequest, message: "the courier executable was not found beside \(beside.path); build the package first")
}

/// Runs `courier` with arguments; returns the process (already started). Its output goes to
/// `output` when given, else nowhere.
func startCourier(_ arguments: [String], output: Pipe? = nil) throws -> Process {
    let process = Process()
    process.executableURL = try courierExecutable()
    process.arguments = arguments
    process.standardOutput = output ?? FileHandle.nullDevice
    try process.run()
    return process
}

/// Waits for a process to end, at most `limit`; kills it if it does not.
func waitForExit(_ process: Process, limit: Duration) async throws -> Int32 {
    let started = ContinuousClock.now
    while process.isRunning {
        guard ContinuousClock.now - started < limit else {
            kill(process.processIdentifier, SIGKILL)
            throw CourierError(code: .timedOut, message: "queue-child did not finish in \(limit)")
        }
        try await Task.sleep(for: .milliseconds(20))
    }
    return process.terminationStatus
}

