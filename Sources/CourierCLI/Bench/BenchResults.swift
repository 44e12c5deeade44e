import Foundation

/// Benchmark results as nested JSON objects with snake_case keys, grouped by topic.
struct BenchResults {
    private(set) var root: [String: Any] = [:]

    /// Sets a value at a dotted path such as `throughput.sequential.raw_ahc.rps`.
    mutating func set(_ path: String, _ value: Any) {
        let keys = path.split(separator: ".").map(String.init)
        root = Self.setting(keys[...], value, in: root)
    }

    private static func setting(_ keys: ArraySlice<String>, _ value: Any, in object: [String: Any]) -> [String: Any] {
        var object = object
        guard let first = keys.first else { return object }
        if keys.count == 1 {
            object[first] = value
        } else {
            object[first] = setting(keys.dropFirst(), value, in: object[first] as? [String: Any] ?? [:])
        }
        return object
    }

    func write(to url: URL) throws {
        let data = try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: url)
    }
}
