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

/// A `courier` child process, with its end as an event a test can wait on.
struct CourierChild {
    /// The process, already started.
    let process: Process
    /// Counts to 1 when the process has ended.
    let exited: EventCounter
}

/// Runs `courier` with arguments; returns the child (already started). Its output goes to
/// `output` when given, else nowhere.
func startCourier(_ arguments: [String], output: Pipe? = nil) throws -> CourierChild {
    let process = Process()
    process.executableURL = try courierExecutable()
    process.arguments = arguments
    process.standardOutput = output ?? FileHandle.nullDevice
    let exited = EventCounter()
    // Set before `run()`, so that even a child that ends at once is seen ending.
    process.terminationHandler = { _ in exited.record() }
    try process.run()
    return CourierChild(process: process, exited: exited)
}

/// Waits for a child to end, at most `limit`; kills it if it does not.
/// - Returns: Its termination status.
func waitForExit(_ child: CourierChild, limit: Duration) async throws -> Int32 {
    guard await child.exited.waitUntil(atLeast: 1, within: limit) else {
        kill(child.process.processIdentifier, SIGKILL)
        _ = await child.exited.waitUntil(atLeast: 1, within: .seconds(10))
        throw CourierError(code: .timedOut, message: "courier \(child.process.arguments?.first ?? "") did not finish in \(limit)")
    }
    return child.process.terminationStatus
}
