import Synchronization

/// Faults in the middle of a response body: the server sends the head and the first bytes of
/// the body, then closes the connection, as a network that drops in the middle of a download
/// would.
///
/// ```swift
/// server.bodyFaults.dropConnection(afterBodyBytes: 1 << 20, path: "/debug/blobs/report")
/// ```
/// Each scripted cut applies to the next request to the path whose body is longer than the
/// cut (a shorter body is sent whole and does not use it up). Paths are compared exactly,
/// without the query.
///
/// `Sendable` without `@unchecked`: all state is held in a `Mutex`.
public final class BodyFaultInjector: Sendable {
    /// Pending cuts by exact path, oldest first: the byte count after which each one closes.
    private let cuts = Mutex<[String: [Int]]>([:])

    init() {}

    /// Scripts the next `count` responses to `path` to close their connection after
    /// `afterBodyBytes` bytes of body.
    /// - Parameters:
    ///   - afterBodyBytes: How many body bytes are sent before the connection closes (0 or more).
    ///   - count: How many responses are cut.
    ///   - path: The exact request path, without a query.
    public func dropConnection(afterBodyBytes: Int, count: Int = 1, path: String) {
        precondition(afterBodyBytes >= 0, "a body cut needs a byte count of 0 or more")
        guard count > 0 else { return }
        cuts.withLock { $0[path, default: []].append(contentsOf: repeatElement(afterBodyBytes, count: count)) }
    }

    /// How many cuts are still scripted for `path`.
    public func remaining(path: String) -> Int {
        cuts.withLock { $0[path]?.count ?? 0 }
    }

    /// Removes every scripted cut.
    public func clear() {
        cuts.withLock { $0.removeAll() }
    }

    /// The byte count of the next cut for `path` whose body is longer than it, taken.
    func takeCut(path: String, bodyLength: Int?) -> Int? {
        cuts.withLock { cuts in
            guard var pending = cuts[path], let first = pending.first else { return nil }
            if let bodyLength, bodyLength <= first { return nil }
            pending.removeFirst()
            cuts[path] = pending.isEmpty ? nil : pending
            return first
        }
    }
}
