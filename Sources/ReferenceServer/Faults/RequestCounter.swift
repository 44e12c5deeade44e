import Synchronization

/// How many requests the server has seen, by method and exact path.
///
/// `Sendable` without `@unchecked`: all state is held in a `Mutex`.
final class RequestCounter: Sendable {
    /// A method and a path, the unit requests are counted in.
    private struct Route: Hashable, Sendable {
        let method: String
        let path: String
    }

    private let counts = Mutex<[Route: Int]>([:])

    /// Counts one request.
    /// - Parameters:
    ///   - method: The request's method.
    ///   - path: The request's path, without the query.
    func record(method: String, path: String) {
        counts.withLock { $0[Route(method: method.uppercased(), path: path), default: 0] += 1 }
    }

    /// How many requests were seen for `path`.
    /// - Parameters:
    ///   - method: The method to count, in any case; `nil` counts all methods.
    ///   - path: The exact path, without a query.
    func count(method: String?, path: String) -> Int {
        let method = method?.uppercased()
        return counts.withLock { counts in
            counts.reduce(0) { total, entry in
                guard entry.key.path == path, method == nil || entry.key.method == method else { return total }
                return total + entry.value
            }
        }
    }

    /// Sets every count back to zero.
    func reset() {
        counts.withLock { $0.removeAll() }
    }
}
