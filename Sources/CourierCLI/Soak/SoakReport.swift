import Foundation

/// The result of a soak: the exactly-once check of the keyed writes, errors by code, and the
/// resource trends, printed for people and written as JSON under `soak`.
///
/// A run fails when a keyed write was applied twice (`duplicates`), when a write the client
/// reported delivered or queued is not on the server (`lost`), when an error was not a
/// `CourierError` (`untyped_errors`), or when an upload's receipt did not match what was sent.
///
/// Slopes are least-squares fits over the samples after the warm-up (the first 20% of the
/// run or 30 s, whichever is shorter). The RSS is the whole process's. With the embedded
/// server, that includes the server: it keeps every radar the keyed writes create, each write's
/// idempotent response (up to 10,000) and the watched radar's recent updates, so part of a
/// positive RSS slope is the server's by design; writes are paced to keep it small. With
/// `--server`, the server runs in another process and the figures are the client's alone.
struct SoakReport {
    /// A point of a fit: minutes since the start, and the value.
    private struct Point {
        let x: Double
        let y: Double
    }

    let plan: SoakPlan
    /// Whether the server ran in the soak's process (its memory is then in the RSS figures).
    let serverInProcess: Bool
    /// How long the traffic actually ran, in seconds.
    let elapsedSeconds: Double
    let tally: SoakTally.Snapshot
    let samples: [SoakResourceSampler.Sample]
    let verification: SoakVerification.Outcome
    let webSocketReconnects: Int

    // MARK: - Keyed writes

    /// The keyed writes made: one name each.
    var writes: Int { tally.writes.count }

    /// The keyed writes the server holds (once or more).
    var writesApplied: Int { tally.writes.keys.filter { verification.held[$0] != nil }.count }

    /// The extra copies: for every name held under more than one id, the ids past the first.
    var duplicates: Int { verification.held.values.reduce(0) { $0 + max(0, $1.count - 1) } }

    /// The writes the client reported delivered or queued that the server does not hold.
    var lost: Int {
        tally.writes.filter { $0.value != .failed && verification.held[$0.key] == nil }.count
    }

    /// The writes whose caller got an error that the server holds anyway (allowed: an error
    /// after the write reached the server, a timeout for one).
    var failedButApplied: Int {
        tally.writes.filter { $0.value == .failed && verification.held[$0.key] != nil }.count
    }

    /// Radars with the run's prefix that no keyed write of the run named.
    var unexpectedRecords: Int { verification.held.keys.filter { tally.writes[$0] == nil }.count }

    /// The keyed writes that ended this way for their caller.
    private func writeCount(_ outcome: SoakTally.WriteOutcome) -> Int {
        tally.writes.values.filter { $0 == outcome }.count
    }

    /// Whether the run failed its checks.
    var failed: Bool {
        duplicates > 0 || lost > 0 || tally.untypedErrors > 0 || tally.uploadMismatches > 0
    }

    // MARK: - Resources

    private var afterWarmUp: [SoakResourceSampler.Sample] {
        samples.filter { $0.seconds >= plan.warmUpSeconds }
    }

    var rssStart: Double? { samples.first?.rssMB }
    var rssEnd: Double? { samples.last?.rssMB }
    var fdsStart: Int? { samples.first?.fds }
    var fdsEnd: Int? { samples.last?.fds }

    /// MB per minute after the warm-up.
    var rssSlope: Double? {
        Self.slope(afterWarmUp.compactMap { sample in sample.rssMB.map { Point(x: sample.seconds / 60, y: $0) } })
    }

    /// Descriptors per minute after the warm-up.
    var fdsSlope: Double? {
        Self.slope(afterWarmUp.compactMap { sample in sample.fds.map { Point(x: sample.seconds / 60, y: Double($0)) } })
    }

    /// The least-squares slope of `points`, or `nil` with fewer than two distinct x values.
    private static func slope(_ points: [Point]) -> Double? {
        guard points.count >= 2 else { return nil }
        let count = Double(points.count)
        let meanX = points.reduce(0) { $0 + $1.x } / count
        let meanY = points.reduce(0) { $0 + $1.y } / count
        let sxx = points.reduce(0) { $0 + ($1.x - meanX) * ($1.x - meanX) }
        let sxy = points.reduce(0) { $0 + ($1.x - meanX) * ($1.y - meanY) }
        guard sxx > 0 else { return nil }
        let slope = sxy / sxx
        return slope.isFinite ? slope : nil
    }

    // MARK: - Output

    /// Prints the summary.
    func printSummary() {
        let calls = tally.calls
        let cached = calls[.cachedRead, default: 0]
        let hits = tally.cacheStatuses["hit", default: 0]
        print("\n── Soak: \(Self.format(elapsedSeconds / 60, 2)) min, \(plan.workers) workers, a fault every \(Self.format(plan.faultPeriodSeconds, 1)) s")
        print("  requests \(tally.requests): plain reads \(calls[.plainRead, default: 0]), cached reads \(cached) (served from the cache \(hits), revalidated \(tally.cacheStatuses["revalidated", default: 0])), keyed writes \(calls[.keyedWrite, default: 0]), uploads \(calls[.upload, default: 0]), live refreshes \(calls[.liveRefresh, default: 0])")
        print("  websocket: \(tally.webSocketMessages) messages, \(webSocketReconnects) reconnects")
        print("  faults: " + Self.list(tally.faults))
        print("  keyed writes \(writes): \(writeCount(.delivered)) delivered, \(writeCount(.queued)) queued, \(writeCount(.failed)) failed (\(failedButApplied) of them applied anyway)")
        print("  the server holds \(writesApplied) of them; duplicates \(duplicates), lost \(lost)\(unexpectedRecords > 0 ? ", unexpected records \(unexpectedRecords)" : "")")
        print("  queue: drained in \(Self.format(verification.drainSeconds, 1)) s, \(verification.pendingAtEnd) still pending, \(verification.deadLettered) dead-lettered")
        print("  errors by code: " + Self.list(tally.errors) + "; untyped \(tally.untypedErrors)")
        for example in tally.untypedExamples { print("    untyped: \(example)") }
        if tally.uploadMismatches > 0 { print("  uploads whose receipt did not match: \(tally.uploadMismatches)") }
        let warmUp = "after a \(Self.format(plan.warmUpSeconds, 0)) s warm-up"
        print("  rss \(Self.mb(rssStart)) → \(Self.mb(rssEnd)), slope \(Self.signed(rssSlope, 3)) MB/min \(warmUp) (\(serverInProcess ? "whole process, the in-process server included" : "the client process alone"))")
        print("  fds \(fdsStart.map(String.init) ?? "n/a") → \(fdsEnd.map(String.init) ?? "n/a"), slope \(Self.signed(fdsSlope, 2))/min; threads \(samples.first?.threads.map(String.init) ?? "n/a") → \(samples.last?.threads.map(String.init) ?? "n/a")")
        print("  live tasks: not available (Swift has no public count); soak operations in flight at most \(samples.map(\.operationsInFlight).max() ?? 0)")
        print(failed ? "✘ soak failed: duplicates, lost writes, untyped errors or upload mismatches" : "✔ soak passed")
    }

    /// Writes the results as JSON, under `soak`.
    func write(to url: URL) throws {
        var results = BenchResults()
        results.set("soak.minutes", plan.minutes)
        results.set("soak.server_in_process", serverInProcess)
        results.set("soak.elapsed_minutes", Self.rounded(elapsedSeconds / 60, 3))
        results.set("soak.requests", tally.requests)
        for operation in SoakTally.Operation.allCases {
            results.set("soak.operations.\(operation.rawValue)", tally.calls[operation, default: 0])
        }
        results.set("soak.writes", writes)
        results.set("soak.writes_delivered", writeCount(.delivered))
        results.set("soak.writes_queued", writeCount(.queued))
        results.set("soak.writes_failed", writeCount(.failed))
        results.set("soak.writes_failed_but_applied", failedButApplied)
        results.set("soak.writes_applied", writesApplied)
        results.set("soak.duplicates", duplicates)
        results.set("soak.lost", lost)
        results.set("soak.unexpected_records", unexpectedRecords)
        results.set("soak.queue_pending_at_end", verification.pendingAtEnd)
        results.set("soak.queue_dead_lettered", verification.deadLettered)
        results.set("soak.rss_mb_start", Self.json(rssStart.map { Self.rounded($0, 2) }))
        results.set("soak.rss_mb_end", Self.json(rssEnd.map { Self.rounded($0, 2) }))
        results.set("soak.rss_slope_mb_per_min", Self.json(rssSlope.map { Self.rounded($0, 4) }))
        results.set("soak.fds_start", Self.json(fdsStart))
        results.set("soak.fds_end", Self.json(fdsEnd))
        results.set("soak.fds_slope_per_min", Self.json(fdsSlope.map { Self.rounded($0, 4) }))
        results.set("soak.threads_start", Self.json(samples.first?.threads))
        results.set("soak.threads_end", Self.json(samples.last?.threads))
        results.set("soak.in_flight_operations_max", samples.map(\.operationsInFlight).max() ?? 0)
        results.set("soak.warm_up_seconds", plan.warmUpSeconds)
        results.set("soak.samples", samples.count)
        results.set("soak.untyped_errors", tally.untypedErrors)
        results.set("soak.upload_mismatches", tally.uploadMismatches)
        results.set("soak.websocket_messages", tally.webSocketMessages)
        results.set("soak.websocket_reconnects", webSocketReconnects)
        results.set("soak.errors_by_code", [String: Any]())
        for (code, count) in tally.errors { results.set("soak.errors_by_code.\(code)", count) }
        results.set("soak.faults", [String: Any]())
        for (fault, count) in tally.faults { results.set("soak.faults.\(fault)", count) }
        for (status, count) in tally.cacheStatuses { results.set("soak.cache_statuses.\(status)", count) }
        try results.write(to: url)
    }

    // MARK: - Formatting

    private static func json<Value>(_ value: Value?) -> Any {
        value.map { $0 as Any } ?? NSNull()
    }

    private static func rounded(_ value: Double, _ places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }

    private static func format(_ value: Double, _ places: Int) -> String {
        String(format: "%.\(places)f", value)
    }

    private static func mb(_ value: Double?) -> String {
        value.map { format($0, 1) + " MB" } ?? "n/a"
    }

    private static func signed(_ value: Double?, _ places: Int) -> String {
        guard let value else { return "n/a" }
        return (value >= 0 ? "+" : "") + format(value, places)
    }

    private static func list(_ counts: [String: Int]) -> String {
        counts.isEmpty ? "none" : counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }
}
