import Foundation
import HTTPTypes
import Synchronization

/// One response shared by every waiter of a deduplicated call.
struct SharedResponse: Sendable {
    let head: HTTPResponse
    let body: Data
}

/// The calls in flight, by key, with their waiters.
///
/// The first caller (the leader) runs the call inline, in its own task, so an uncontended call
/// costs two short locks and nothing else: no task, and no closure that copies the request.
/// Later callers (followers) wait for the leader's result. A follower that is cancelled leaves
/// alone. When the leader is cancelled while followers wait, it hands the call over to a new
/// task that runs it for them, so one waiter's cancellation never fails the others; when every
/// waiter has left, the call is cancelled.
///
/// A `final class` whose state sits in a `Mutex`, which makes it `Sendable`.
final class InFlightCalls<Key: Hashable & Sendable>: Sendable {
    private struct Entry {
        let generation: Int
        /// The task running the call after a hand-over; `nil` while the leader runs it inline.
        var task: Task<Void, Never>?
        /// Each follower's wait; resumed with `nil` never (that value means "the call ended
        /// before the follower could wait on it", decided in ``follow(_:id:)``).
        var followers: [Int: CheckedContinuation<SharedResponse?, any Error>]
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var nextID = 0
        /// Tests waiting in ``waitUntilWaiting(_:)``, by id, with the count each waits for;
        /// always empty outside tests, so a call only checks that it is empty.
        var watches: [Int: (count: Int, continuation: CheckedContinuation<Void, Never>)] = [:]

        /// The callers waiting on a call, over every key: the followers, and the leader while
        /// it runs the call inline.
        var waiterCount: Int {
            entries.values.reduce(0) { $0 + $1.followers.count + ($1.task == nil ? 1 : 0) }
        }

        /// Takes the test watches whose count is reached.
        mutating func takeSatisfiedWatches() -> [CheckedContinuation<Void, Never>] {
            guard !watches.isEmpty else { return [] }
            let waiting = waiterCount
            let satisfied = watches.filter { $0.value.count <= waiting }
            for id in satisfied.keys { watches.removeValue(forKey: id) }
            return satisfied.values.map { $0.continuation }
        }
    }

    private let state = Mutex(State())

    /// How many followers wait on the call for `key` (for tests).
    func waiterCount(for key: Key) -> Int {
        state.withLock { $0.entries[key].map { $0.followers.count + ($0.task == nil ? 1 : 0) } ?? 0 }
    }

    /// How many callers wait on calls in flight, over every key (for tests).
    var totalWaiterCount: Int {
        state.withLock { $0.waiterCount }
    }

    /// Returns once at least `count` callers wait on calls in flight, over every key, or at
    /// once when the calling task is cancelled (for tests: they wait for callers to join
    /// instead of sleeping).
    func waitUntilWaiting(_ count: Int) async {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let reached = state.withLock { state -> Bool in
                    if Task.isCancelled || state.waiterCount >= count { return true }
                    state.watches[id] = (count, continuation)
                    return false
                }
                if reached { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.watches.removeValue(forKey: id) }?.continuation.resume()
        }
    }

    /// Joins the call for `key`, running it inline with `run` when none is in flight.
    ///
    /// `run` does not escape, so the first caller's call copies nothing into a closure.
    /// `restart` makes an escaping copy of the work; it is called only when the first caller
    /// is cancelled while others wait, to hand the call over to a new task.
    /// - Parameters:
    ///   - key: What makes two calls identical.
    ///   - following: Called when the caller finds the call in flight and waits for it.
    ///   - run: The call, run by the first caller.
    ///   - restart: Makes the call again, for a hand-over.
    /// - Returns: The call's response, shared by every caller that joined it.
    func join(
        _ key: Key,
        following: () -> Void = {},
        run: () async throws -> SharedResponse,
        restart: () -> @Sendable () async throws -> SharedResponse
    ) async throws -> SharedResponse {
        while true {
            if let response = try await joinOnce(key, following: following, run: run, restart: restart) { return response }
            // The call this caller found ended before it could wait on it: join again.
        }
    }

    /// One try at ``join(_:run:restart:)``: `nil` when the call found in flight ended between
    /// the look and the wait.
    private func joinOnce(
        _ key: Key,
        following: () -> Void,
        run: () async throws -> SharedResponse,
        restart: () -> @Sendable () async throws -> SharedResponse
    ) async throws -> SharedResponse? {
        let (id, isLeader, watches) = state.withLock { state -> (Int, Bool, [CheckedContinuation<Void, Never>]) in
            state.nextID += 1
            let id = state.nextID
            // A look, then an insert when the key is absent: the key's hash is worked out once,
            // when it is made, so the second lookup is cheap. (`subscript(_:default:)`
            // would make one lookup, but boxes its default's captures on the heap every call.)
            let inserted = state.entries.index(forKey: key) == nil
            if inserted { state.entries[key] = Entry(generation: id, task: nil, followers: [:]) }
            return (id, inserted, inserted ? state.takeSatisfiedWatches() : [])
        }
        for watch in watches { watch.resume() }
        guard isLeader else {
            following()
            return try await follow(key, id: id)
        }
        let result: Result<SharedResponse, any Error>
        do {
            result = .success(try await run())
        } catch {
            result = .failure(error)
        }
        if Task.isCancelled, case .failure = result, handOver(key, generation: id, restart: restart) {
            return try result.get()
        }
        finish(key, generation: id, with: result)
        return try result.get()
    }

    /// Gives the call to a new task when followers are waiting; returns whether it did.
    @inline(never)
    private func handOver(_ key: Key, generation: Int, restart: () -> @Sendable () async throws -> SharedResponse) -> Bool {
        let handedOver = state.withLock { state -> Bool in
            guard let entry = state.entries[key], entry.generation == generation, !entry.followers.isEmpty else { return false }
            return true
        }
        guard handedOver else { return false }
        let start = restart()
        let task = Task {
            let result: Result<SharedResponse, any Error>
            do {
                result = .success(try await start())
            } catch {
                result = .failure(error)
            }
            self.finish(key, generation: generation, with: result)
        }
        let abandoned = state.withLock { state -> Bool in
            guard let entry = state.entries[key], entry.generation == generation else { return true }
            if entry.followers.isEmpty {
                // Every follower left while the task was being made (each saw no task to
                // cancel): nobody wants the call any more.
                state.entries.removeValue(forKey: key)
                return true
            }
            state.entries[key]?.task = task
            return false
        }
        if abandoned { task.cancel() }
        return true
    }

    /// How a follower's attempt to wait on a call went.
    private enum FollowOutcome { case waiting, cancelled, ended }

    /// Waits for the call in flight for `key`; `nil` when it ended before this caller could
    /// wait on it (its leader finished between ``join(_:run:restart:)``'s look and this wait).
    @inline(never)
    private func follow(_ key: Key, id: Int) async throws -> SharedResponse? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<SharedResponse?, any Error>) in
                let (outcome, watches) = state.withLock { state -> (FollowOutcome, [CheckedContinuation<Void, Never>]) in
                    if Task.isCancelled { return (.cancelled, []) }
                    guard state.entries[key] != nil else { return (.ended, []) }
                    state.entries[key]?.followers[id] = continuation
                    return (.waiting, state.takeSatisfiedWatches())
                }
                for watch in watches { watch.resume() }
                switch outcome {
                case .waiting: break
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .ended: continuation.resume(returning: nil)
                }
            }
        } onCancel: {
            let (continuation, abandoned) = state.withLock { state -> (CheckedContinuation<SharedResponse?, any Error>?, Task<Void, Never>?) in
                guard var entry = state.entries[key], let continuation = entry.followers.removeValue(forKey: id) else { return (nil, nil) }
                if entry.followers.isEmpty, let task = entry.task {
                    state.entries.removeValue(forKey: key)
                    return (continuation, task)
                }
                state.entries[key] = entry
                return (continuation, nil)
            }
            continuation?.resume(throwing: CancellationError())
            abandoned?.cancel()
        }
    }

    @inline(never)
    private func finish(_ key: Key, generation: Int, with result: Result<SharedResponse, any Error>) {
        let followers = state.withLock { state -> [Int: CheckedContinuation<SharedResponse?, any Error>] in
            guard let index = state.entries.index(forKey: key), state.entries.values[index].generation == generation else { return [:] }
            return state.entries.remove(at: index).value.followers
        }
        for follower in followers.values { follower.resume(with: result.map { Optional($0) }) }
    }
}
