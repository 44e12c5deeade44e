import Synchronization

/// The origin's memory: each test's configured steps and everything it has seen for it.
///
/// A `final class` whose state sits in a `Mutex`, which makes it `Sendable`.
final class OriginLedger: Sendable {
    private struct TestRecord {
        var steps: [ConformanceStep]
        var exchanges: [ObservedExchange] = []
        /// The header values as last sent for each step index, after date rendering: what a
        /// later step's validation compares conditional headers against.
        var sentHeaders: [Int: [(name: String, value: String)]] = [:]
    }

    private let records = Mutex<[String: TestRecord]>([:])

    /// Stores (or replaces) a test's steps and forgets what was seen for it.
    func configure(_ uuid: String, steps: [ConformanceStep]) {
        records.withLock { $0[uuid] = TestRecord(steps: steps) }
    }

    /// The steps configured for a test and how many requests it has seen, or `nil` when it
    /// was never configured.
    func configuration(for uuid: String) -> (steps: [ConformanceStep], seen: Int)? {
        records.withLock { records in
            records[uuid].map { ($0.steps, $0.exchanges.count) }
        }
    }

    /// The value of a header as the origin last sent it for a step, or as the step writes it
    /// when the step was never answered.
    func sentValue(of name: String, step index: Int, uuid: String) -> String? {
        records.withLock { records in
            guard let record = records[uuid], record.steps.indices.contains(index) else { return nil }
            let lowered = name.lowercased()
            if let sent = record.sentHeaders[index] {
                return sent.last { $0.name.lowercased() == lowered }?.value
            }
            return record.steps[index].responseHeaders.lastValue(named: name)?.literal
        }
    }

    /// Records an answered request.
    /// - Returns: The server's count of requests for the test, this one included, and the
    ///   `Req-Num` of every request seen so far.
    func record(
        _ exchange: ObservedExchange,
        sentHeaders: [(name: String, value: String)],
        step index: Int,
        uuid: String
    ) -> (count: Int, requestNumbers: [Int?]) {
        records.withLock { records in
            guard var record = records[uuid] else { return (0, []) }
            record.exchanges.append(exchange)
            record.sentHeaders[index] = sentHeaders
            records[uuid] = record
            return (record.exchanges.count, record.exchanges.map(\.requestNumber))
        }
    }

    /// Everything seen for a test, or `nil` when it was never configured.
    func exchanges(for uuid: String) -> [ObservedExchange]? {
        records.withLock { $0[uuid]?.exchanges }
    }
}
