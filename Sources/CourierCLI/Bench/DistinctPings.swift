import Courier
import Foundation
import Synchronization

/// Hands out `GET /debug/ping?n=<counter>` targets, a different one per call, so that no two
/// calls in a benchmark are identical: Courier's dedup must not share them, and every
/// contender makes exactly one request per call.
final class DistinctPings: Sendable {
    private let counter = Atomic<Int>(0)
    private let base: String

    init(baseURL: URL) {
        self.base = baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
    }

    private func next() -> Int { counter.add(1, ordering: .relaxed).newValue }

    /// An absolute URL string, for raw clients.
    func urlString() -> String { "\(base)/debug/ping?n=\(next())" }

    /// A path with its query, for a hand-built `HTTPRequest`.
    func pathAndQuery() -> String { "/debug/ping?n=\(next())" }

    /// A typed request, for Courier.
    func request<Value>(_ type: Value.Type) -> Request<Value> {
        Request(path: "/debug/ping", query: [URLQueryItem(name: "n", value: String(next()))], name: "bench.ping")
    }
}
