import ClarityAPI
import Courier
import CourierAsyncHTTPClient
import CourierSQLite
import Foundation
import RadarAPI
import RadarCore
import ReferenceServer

/// The offline queue: a burst of writes queued while offline (durably, `synchronous = FULL`),
/// then replayed to the server when connectivity returns; the server's records are counted.
struct QueueBenchmark {
    let server: ReferenceServer
    let baseURL: URL
    let quick: Bool

    func run(into results: inout BenchResults) async throws {
        print("\nqueue")
        let writes = quick ? 1_000 : 10_000
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-bench-queue-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let transport = AsyncHTTPClientTransport()
        do {
            let monitor = ConnectivityMonitor(initial: .offline)
            let queue = OfflineQueue(storage: try SQLiteQueueStorage(url: folder.appendingPathComponent("queue.sqlite")))
            let clarity = ClarityClient(baseURL: baseURL, transport: transport) { configuration in
                configuration.offlineQueue = queue
                configuration.connectivity = monitor
            }
            let tokens = try await server.issueTokens(email: ReferenceServerConfiguration().demoEmail)
            try await clarity.session.signIn(tokens.credential(issuedAt: Date()))
            let prefix = "bench-queue-\(UUID().uuidString.prefix(8))"
            let radar = clarity.client.rebased(to: baseURL)

            // One at a time: each write waits for its own disk flush.
            let sequentialCount = quick ? 20 : 100
            let sequentialStart = ContinuousClock.now
            for index in 0..<sequentialCount {
                _ = try await radar.sendOrQueue(RadarEndpoints.create(topic: "\(prefix)-s\(index)"))
            }
            let sequential = (ContinuousClock.now - sequentialStart).timeInterval * 1_000

            // A burst: writes that arrive together share disk flushes (group commit).
            let burstStart = ContinuousClock.now
            let queued = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<writes {
                    group.addTask {
                        if case .queued = try await radar.sendOrQueue(RadarEndpoints.create(topic: "\(prefix)-\(index)")) { return true }
                        return false
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            let enqueueMs = (ContinuousClock.now - burstStart).timeInterval * 1_000
            let total = writes + sequentialCount

            // Connectivity returns: the queue replays everything, in order.
            var events = queue.events().makeAsyncIterator()
            let replayStart = ContinuousClock.now
            monitor.report(.requestSucceeded)
            var delivered = 0
            var deadLettered = 0
            while delivered + deadLettered < total, let event = await events.next() {
                switch event {
                case .delivered: delivered += 1
                case .deadLettered: deadLettered += 1
                default: break
                }
            }
            let replayMs = (ContinuousClock.now - replayStart).timeInterval * 1_000
            let records = try await recordCount(prefix: prefix, client: RadarClient(client: clarity.client.rebased(to: baseURL)))

            results.set("queue.writes", writes)
            results.set("queue.enqueue_ms", (enqueueMs * 10).rounded() / 10)
            results.set("queue.enqueued", queued)
            results.set("queue.sequential_writes", sequentialCount)
            results.set("queue.sequential_ms_per_write", (sequential / Double(sequentialCount) * 100).rounded() / 100)
            results.set("queue.replay_ms", (replayMs * 10).rounded() / 10)
            results.set("queue.replayed", total)
            results.set("queue.delivered", delivered)
            results.set("queue.dead_lettered", deadLettered)
            results.set("queue.server_records", records)
            results.set("queue.duplicates", records - delivered)
            print(String(format: "  enqueue %d writes (burst, durable): %.1f ms   one at a time: %.2f ms per write (%d writes)", writes, enqueueMs, sequential / Double(sequentialCount), sequentialCount))
            print(String(format: "  replay %d writes: %.1f ms, %d delivered, %d dead-lettered; the server holds %d records (%d duplicates)", total, replayMs, delivered, deadLettered, records, records - delivered))
            try await transport.shutdown()
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }

    /// How many radars with the prefix the server holds, read page by page.
    private func recordCount(prefix: String, client: RadarClient) async throws -> Int {
        var count = 0
        for try await page in Pages.offsetLimit(
            client: client.client, limit: 100,
            request: { offset, limit in RadarEndpoints.list(limit: limit, offset: offset) },
            itemCount: { $0.count }
        ) {
            count += page.filter { $0.topic.hasPrefix(prefix) }.count
        }
        return count
    }
}
