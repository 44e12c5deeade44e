import Foundation
import Synchronization

/// The counts the demo observed, one group per capability, written as JSON by `--json`.
///
/// A `final class` whose counts sit in a `Mutex`, which makes it `Sendable`.
final class DemoReport: Sendable {
    private let groups = Mutex<[String: [String: Int]]>([:])

    /// Sets one count.
    func set(_ group: String, _ key: String, _ value: Int) {
        groups.withLock { $0[group, default: [:]][key] = value }
    }

    /// Adds to one count.
    func add(_ group: String, _ key: String, _ value: Int = 1) {
        groups.withLock { $0[group, default: [:]][key, default: 0] += value }
    }

    /// Writes the groups as pretty, sorted JSON.
    func write(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(groups.withLock { $0 }).write(to: url)
    }
}
