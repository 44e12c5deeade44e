#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// Samples the process's resources once a second while a soak runs: the resident set
/// (`VmRSS` in `/proc/self/status`), the open file descriptors (the entries of
/// `/proc/self/fd`), the threads (`Threads` in `/proc/self/status`), and the soak's own
/// operations in flight.
///
/// Live Swift tasks are not sampled: the runtime offers no public, cheap count of them, so
/// the soak reports its in-flight operations instead, under that name.
///
/// The figures are the whole process's: the in-process reference server is in them. The fd
/// count includes the one descriptor used to list `/proc/self/fd`, the same in every sample.
/// Without `/proc` (macOS), the RSS, fd and thread figures are `nil`: not available.
final class SoakResourceSampler: Sendable {
    /// One sample.
    struct Sample: Sendable {
        /// Seconds since the run started.
        let seconds: Double
        /// The resident set, in MB (2^20 bytes).
        let rssMB: Double?
        /// The open file descriptors.
        let fds: Int?
        /// The process's threads.
        let threads: Int?
        /// The soak's operations under way.
        let operationsInFlight: Int
    }

    private let tally: SoakTally
    private let samples = Mutex<[Sample]>([])

    /// Makes a sampler that also reads the in-flight gauge of `tally`.
    init(tally: SoakTally) {
        self.tally = tally
    }

    /// The samples taken so far, oldest first.
    var all: [Sample] {
        samples.withLock { $0 }
    }

    /// Takes a sample at `start` and every second after it until `deadline`, and one at the
    /// end; prints a progress line every minute.
    func run(from start: ContinuousClock.Instant, until deadline: ContinuousClock.Instant) async {
        var tick = start
        var taken = 0
        while tick < deadline {
            try? await Task.sleep(until: tick, clock: .continuous)
            let sample = take(since: start)
            taken += 1
            if taken > 1, (taken - 1).isMultiple(of: 60) { printProgress(sample) }
            tick += .seconds(1)
        }
        try? await Task.sleep(until: deadline, clock: .continuous)
        _ = take(since: start)
    }

    private func take(since start: ContinuousClock.Instant) -> Sample {
        let status = Self.readFile("/proc/self/status")
        let sample = Sample(
            seconds: (ContinuousClock.now - start).timeInterval,
            rssMB: status.flatMap { Self.field("VmRSS", in: $0) }.map { Double($0) / 1024 },
            fds: Self.openFileDescriptors(),
            threads: status.flatMap { Self.field("Threads", in: $0) },
            operationsInFlight: tally.operationsInFlight
        )
        samples.withLock { $0.append(sample) }
        return sample
    }

    private func printProgress(_ sample: Sample) {
        let counts = tally.snapshot()
        let rss = sample.rssMB.map { String(format: "%.1f MB", $0) } ?? "n/a"
        let fds = sample.fds.map(String.init) ?? "n/a"
        let threads = sample.threads.map(String.init) ?? "n/a"
        print("  \(Int(sample.seconds / 60)) min: rss \(rss), fds \(fds), threads \(threads), \(counts.requests) requests, \(counts.typedErrors) typed errors, \(counts.untypedErrors) untyped")
    }

    /// The number in a `/proc/self/status` line such as `VmRSS:   123456 kB`.
    static func field(_ name: String, in status: String) -> Int? {
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            let digits = line.dropFirst(name.count + 1).filter { $0.isASCII && $0.isNumber }
            return Int(String(digits))
        }
        return nil
    }

    /// The entries of `/proc/self/fd`, or `nil` where there is no `/proc`.
    static func openFileDescriptors() -> Int? {
        #if os(Linux)
        return (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.count
        #else
        return nil
        #endif
    }

    /// A whole file read with `read(2)` until its end: `/proc` files report a size of 0, so
    /// they are not read by size.
    static func readFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { _ = close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }
}
