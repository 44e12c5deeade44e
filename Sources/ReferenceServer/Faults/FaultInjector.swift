import Synchronization

/// The faults scripted for the next requests to a ``ReferenceServer``.
///
/// ```swift
/// server.faults.inject(.status(503), count: 2, path: "/api/radars")
/// server.faults.inject(.rateLimited(retryAfter: "1"), method: "POST", path: "/api/v1/auth/refresh")
/// ```
/// Each path keeps its injections in the order they were made; a request takes one from the
/// first injection that matches its method. Paths are compared exactly, without the query.
///
/// `Sendable` without `@unchecked`: all state is held in a `Mutex`.
public final class FaultInjector: Sendable {
    /// A fault waiting for requests to a path.
    private struct Injection: Sendable {
        let fault: Fault
        /// The method it is limited to, uppercased; `nil` for any method.
        let method: String?
        /// How many more requests it applies to.
        var remaining: Int
    }

    /// Pending injections by exact path, oldest first.
    private let injections = Mutex<[String: [Injection]]>([:])

    init() {}

    /// Scripts a fault for the next `count` requests to `path`.
    ///
    /// - Parameters:
    ///   - fault: What happens to those requests. A ``Fault/status(_:)`` must be from 200 to 599.
    ///   - count: How many requests get the fault; 0 or less scripts nothing.
    ///   - method: The method the fault is limited to, such as `"GET"` (any case); `nil` for every method.
    ///   - path: The exact request path, such as `"/api/radars"`, without a query.
    public func inject(_ fault: Fault, count: Int = 1, method: String? = nil, path: String) {
        if case .status(let code) = fault {
            precondition((200...599).contains(code), "an injected status must be from 200 to 599, got \(code)")
        }
        guard count > 0 else { return }
        let injection = Injection(fault: fault, method: method?.uppercased(), remaining: count)
        injections.withLock { $0[path, default: []].append(injection) }
    }

    /// Removes every scripted fault.
    public func clear() {
        injections.withLock { $0.removeAll() }
    }

    /// How many requests to `path` still have a fault scripted, whatever their method.
    /// - Parameter path: The exact request path, without a query.
    public func remaining(path: String) -> Int {
        injections.withLock { $0[path, default: []].reduce(0) { $0 + $1.remaining } }
    }

    /// Takes the fault for a request, if one is scripted, and counts it as used.
    /// - Parameters:
    ///   - method: The request's method.
    ///   - path: The request's path, without the query.
    /// - Returns: The fault to apply, or `nil` to handle the request as usual.
    func takeFault(method: String, path: String) -> Fault? {
        let method = method.uppercased()
        return injections.withLock { injections in
            guard var queue = injections[path],
                  let index = queue.firstIndex(where: { $0.method == nil || $0.method == method })
            else { return nil }
            let fault = queue[index].fault
            queue[index].remaining -= 1
            if queue[index].remaining == 0 {
                queue.remove(at: index)
            }
            injections[path] = queue.isEmpty ? nil : queue
            return fault
        }
    }
}
