import Foundation
import Logging
import PostgresNIO
import Synchronization

/// Follows one `NOTIFY` channel on a connection of its own and tells subscribers, reconnecting
/// (with a growing pause, up to 5 seconds) when the connection breaks or the server restarts.
/// Subscribers hear a change each time it starts listening: first to say it listens, then
/// after each reconnection, for any notification missed meanwhile.
///
/// A connection can also go deaf without breaking: half-open after a failover, or dropped by a
/// NAT while idle, it reports no error and delivers nothing. So the feed asks the server
/// `SELECT 1` on it every `keepAlive`; an answer that does not come within the database's
/// operation timeout closes the connection, and the feed reconnects.
///
/// `Sendable`: a `final class` whose mutable state (subscribers, the listening task) sits in a `Mutex`.
final class ChangeFeed: Sendable {
    private struct State {
        var subscribers: [Int: AsyncStream<Void>.Continuation] = [:]
        var nextID = 0
        var task: Task<Void, Never>?
    }

    private let database: PostgresDatabase
    private let channel: String
    /// Which notifications count: the payload names the store.
    private let payload: String
    private let state = Mutex(State())
    /// How often the listening connection is checked.
    private let keepAlive: Duration

    init(database: PostgresDatabase, channel: String, payload: String, keepAlive: Duration) {
        self.keepAlive = keepAlive
        self.database = database
        self.channel = channel
        self.payload = payload
    }

    deinit {
        state.withLock { $0.task?.cancel() }
    }

    /// Yields on every notification for this store; listening starts with the first subscriber.
    func stream() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.subscribers[id] = continuation
            continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) } }
            if state.task == nil {
                state.task = Task { [weak self] in await self?.listen() }
                if let task = state.task { database.adopt(task) }
            }
        }
        return stream
    }

    /// Stops listening and ends every subscriber's stream.
    func stop() {
        let (task, subscribers) = state.withLock { state in
            defer { state.task = nil; state.subscribers = [:] }
            return (state.task, state.subscribers)
        }
        task?.cancel()
        for subscriber in subscribers.values { subscriber.finish() }
    }

    private func publish() {
        for subscriber in state.withLock({ Array($0.subscribers.values) }) { subscriber.yield() }
    }

    /// Asks the server for an answer on the listening connection every ``keepAlive``; throws
    /// (after closing the connection) when one does not come within the operation timeout.
    private func checkAlive(_ connection: PostgresConnection) async throws {
        while true {
            try await Task.sleep(for: keepAlive)
            do {
                try await database.bounded("checking the change feed's connection", database.operationTimeout) { [database] in
                    _ = try await connection.query("SELECT 1", logger: database.logger).collect()
                }
            } catch {
                try? await connection.close()
                throw error
            }
        }
    }

    private func listen() async {
        var pause: Duration = .milliseconds(200)
        while !Task.isCancelled {
            do {
                let connection = try await database.openConnection()
                defer { Task { try? await connection.close() } }
                pause = .milliseconds(200)
                // Whichever ends first, the listening or the keep-alive, ends both.
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { [self] in
                        try await connection.listen(on: channel) { notifications in
                            publish()
                            for try await notification in notifications where notification.payload == payload {
                                publish()
                            }
                        }
                    }
                    group.addTask { [self] in try await checkAlive(connection) }
                    defer { group.cancelAll() }
                    try await group.next()
                }
            } catch {
                database.logger.debug("the outbox's change feed lost its connection; it reconnects", metadata: ["channel": "\(channel)"])
            }
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(5))
        }
    }
}
