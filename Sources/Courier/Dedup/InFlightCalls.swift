import Foundation
import HTTPTypes
import Synchronization

/// One response shared by every waiter of a deduplicated call.
struct SharedResponse: Sendable {
    let head: HTTPResponse
    let body: Data
}

/// The calls in flight, by key, with their waiters: the first caller starts the call, later
/// ones join it; a waiter that is cancelled leaves alone, and the call is cancelled when the
/// last waiter leaves.
///
/// A `final class` whose state sits in a `Mutex`, which makes it `Sendable`.
final class InFlightCalls<Key: Hashable & Sendable>: Sendable {
    private struct Entry {
        let generation: Int
        var task: Task<Void, Never>?
        var waiters: [Int: CheckedContinuation<SharedResponse, any Error>]
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var nextID = 0
    }

    private let state = Mutex(State())

    /// How many waiters share the call for `key` (for tests).
    func waiterCount(for key: Key) -> Int {
        state.withLock { $0.entries[key]?.waiters.count ?? 0 }
    }

    /// Joins the call for `key`, starting it with `start` when none is in flight.
    func join(_ key: Key, start: @escaping @Sendable () async throws -> SharedResponse) async throws -> SharedResponse {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                let generation = state.withLock { state -> Int? in
                    if state.entries[key] != nil {
                        state.entries[key]?.waiters[id] = continuation
                        return nil
                    }
                    state.entries[key] = Entry(generation: id, task: nil, waiters: [id: continuation])
                    return id
                }
                guard let generation else { return }
                let task = Task { await self.run(key, generation: generation, start: start) }
                let keep = state.withLock { state -> Bool in
                    guard state.entries[key]?.generation == generation else { return false }
                    state.entries[key]?.task = task
                    return true
                }
                if !keep { task.cancel() }
            }
        } onCancel: {
            let (continuation, abandoned) = state.withLock { state -> (CheckedContinuation<SharedResponse, any Error>?, Task<Void, Never>?) in
                guard var entry = state.entries[key], let continuation = entry.waiters.removeValue(forKey: id) else { return (nil, nil) }
                if entry.waiters.isEmpty {
                    state.entries.removeValue(forKey: key)
                    return (continuation, entry.task)
                }
                state.entries[key] = entry
                return (continuation, nil)
            }
            continuation?.resume(throwing: CancellationError())
            abandoned?.cancel()
        }
    }

    private func run(_ key: Key, generation: Int, start: @Sendable () async throws -> SharedResponse) async {
        let result: Result<SharedResponse, any Error>
        do {
            result = .success(try await start())
        } catch {
            result = .failure(error)
        }
        let waiters = state.withLock { state -> [CheckedContinuation<SharedResponse, any Error>] in
            guard state.entries[key]?.generation == generation else { return [] }
            return Array(state.entries.removeValue(forKey: key)?.waiters.values ?? [:].values)
        }
        for waiter in waiters { waiter.resume(with: result) }
    }
}
