import ClarityAPI
@testable import Courier
import CourierCLI
import CourierTesting
import Foundation
import HTTPTypes
import IntervalsAPI
import IntervalsCore
import ReferenceServer
import Testing

/// Seed 001's batching: writes queued while offline that the service takes in one call go in
/// one call, each still reported on its own.
@Suite("Offline queue batching", .timeLimit(.minutes(1)))
struct QueueBatchingTests {
    // MARK: - Which writes go together (pure)

    private static func write(_ key: String, queue: String = "default", account: String? = "a", due: Bool = true, weight: Int = 1) -> QueuedRequest {
        let created = Date(timeIntervalSince1970: 1_000)
        return QueuedRequest(
            queue: queue, method: "PUT", url: "https://api.test/\(key)", fields: [], body: Data(String(repeating: "x", count: weight).utf8),
            idempotencyKey: UUID().uuidString, createdAt: created, nextAttemptAt: due ? created : created.addingTimeInterval(3_600), account: account
        )
    }

    private static let byPath = WriteBatcher(
        name: "test", maxWrites: 3, maxWeight: 10,
        batchKey: { $0.url.hasPrefix("https://api.test/k") ? String($0.url.prefix(18)) : nil },
        weight: { $0.body.count },
        combine: { WriteBatcher.Combined(method: "PUT", url: "https://api.test/bulk", body: Data($0.map(\.body).joined())) }
    )

    @Test func aBatchIsTheConsecutiveDueWritesOfOneQueueAccountAndKeyWithinItsLimits() {
        let a = Self.write("k1"), b = Self.write("k1"), other = Self.write("k1", queue: "other"), c = Self.write("k1")
        let items = [a, other, b, c, Self.write("k1")]
        #expect(Self.byPath.batch(startingWith: a, in: items) { _ in true }.map(\.id) == [a.id, b.id, c.id], "another queue's write does not break it; three at most")
        let stopAtKey = [a, Self.write("z9"), b]
        #expect(Self.byPath.batch(startingWith: a, in: stopAtKey) { _ in true }.map(\.id) == [a.id], "a write of another key ends it: order is kept")
        let stopAtAccount = [a, Self.write("k1", account: "b"), b]
        #expect(Self.byPath.batch(startingWith: a, in: stopAtAccount) { _ in true }.map(\.id) == [a.id])
        let notDue = Self.write("k1", due: false)
        #expect(Self.byPath.batch(startingWith: a, in: [a, notDue, b]) { $0.nextAttemptAt <= Date(timeIntervalSince1970: 1_000) }.map(\.id) == [a.id])
        let heavy = Self.write("k1", weight: 10)
        #expect(Self.byPath.batch(startingWith: a, in: [a, heavy, b]) { _ in true }.map(\.id) == [a.id], "past maxWeight it stops")
        #expect(Self.byPath.batch(startingWith: Self.write("z9"), in: items) { _ in true }.count == 1, "a write without a key goes alone")
    }

    @Test func theSameBatchAlwaysHasTheSameIdempotencyKey() {
        let writes = [Self.write("k1"), Self.write("k1")]
        #expect(WriteBatcher.idempotencyKey(name: "t", of: writes) == WriteBatcher.idempotencyKey(name: "t", of: writes))
        #expect(WriteBatcher.idempotencyKey(name: "t", of: writes) != WriteBatcher.idempotencyKey(name: "t", of: writes.reversed()))
    }

    // MARK: - Against the reference server

    /// Waits for `count` deliveries (or dead letters) of the queue, in the order reported.
    private static func outcomes(_ count: Int, from events: AsyncStream<QueueEvent>) async -> [String] {
        await withDeadline(.seconds(20)) {
            var seen: [String] = []
            for await event in events {
                switch event {
                case .delivered(let id, _, _): seen.append("delivered \(id)")
                case .deadLettered(let id, _): seen.append("dead \(id)")
                default: continue
                }
                if seen.count == count { break }
            }
            return seen
        } ?? []
    }

    @Test(arguments: TransportKind.allCases)
    func queuedWellnessDaysGoAsOneBulkWriteAndEachIsReportedDelivered(kind: TransportKind) async throws {
        try await withRunningServer { server, url in
            try await withTransport(kind) { transport in
                let monitor = ConnectivityMonitor(initial: .offline)
                let queue = OfflineQueue(storage: MemoryQueueStorage(), batchers: [IntervalsEndpoints.wellnessBatcher()])
                let intervals = IntervalsClient(baseURL: url, transport: transport, auth: .apiKey(ReferenceServerConfiguration().demoAPIKey)) {
                    $0.offlineQueue = queue
                    $0.connectivity = monitor
                }
                let events = queue.events()
                let first = try #require(CalendarDay("2026-11-21"))
                var ids: [String] = []
                for (offset, weight) in [70.1, 70.3, 69.8].enumerated() {
                    var day = Wellness(id: first.adding(days: offset))
                    day.weight = weight
                    let error = await courierError { try await intervals.wellness.save(day) }
                    #expect(error?.code == .queued)
                    ids += [error?.queuedRequestID].compactMap { $0 }
                }
                var again = Wellness(id: first)
                again.mood = 2
                let queuedAgain = await courierError { try await intervals.wellness.save(again) }
                ids += [queuedAgain?.queuedRequestID].compactMap { $0 }
                #expect(ids.count == 4)

                await server.resetCounters()
                monitor.report(.pathChanged(.online))
                await queue.replay()
                #expect(await Self.outcomes(4, from: events).sorted() == ids.map { "delivered \($0)" }.sorted(), "each write reported on its own")
                #expect(await server.requestCount(method: "PUT", path: "/api/v1/athlete/0/wellness-bulk") == 1, "four writes, one call")
                #expect(await server.requestCount(method: "PUT", path: "/api/v1/athlete/0/wellness/\(first)") == 0)
                let stored = try await intervals.wellness.range(from: first, through: first.adding(days: 2))
                #expect(stored.map(\.weight) == [70.1, 70.3, 69.8])
                #expect(stored.first?.mood == 2, "two writes of one day merged, the later's fields over the earlier's")
                #expect(try await queue.pending().isEmpty)
            }
        }
    }

    @Test func queuedHealthDataGoesAsOneUploadAndEachIsReportedDelivered() async throws {
        try await withRunningServer { server, url in
            try await withTransport { transport in
                let monitor = ConnectivityMonitor(initial: .offline)
                let queue = OfflineQueue(storage: MemoryQueueStorage(), batchers: [ClarityClient.healthDataBatcher(maxMetrics: 5)])
                let clarity = ClarityClient(baseURL: url, transport: transport) { $0.offlineQueue = queue; $0.connectivity = monitor }
                let tokens = try await server.issueTokens(email: ReferenceServerConfiguration().demoEmail)
                try await clarity.session.signIn(tokens.credential(issuedAt: Date()))
                let events = queue.events()
                var ids: [String] = []
                for beats in [[61.0, 62], [63], [64, 65], [66]] {
                    let metrics = beats.map { HealthMetric(biometricData: .init(heartRate: $0), metricType: "heart_rate") }
                    let upload = HealthDataUpload(clientTimestamp: Date(), metrics: metrics, uploadSource: "apple_health", userId: "demo-user")
                    let error = await courierError { _ = try await clarity.submitHealthData(upload) }
                    #expect(error?.code == .queued)
                    ids += [error?.queuedRequestID].compactMap { $0 }
                }
                monitor.report(.pathChanged(.online))
                await queue.replay()
                #expect(await Self.outcomes(4, from: events).sorted() == ids.map { "delivered \($0)" }.sorted())
                #expect(await server.requestCount(method: "POST", path: "/api/v1/health-data/") == 2, "six metrics at most five a call: 2+1+2, then 1")
                let stored = try await clarity.healthData(limit: 100).items.compactMap { $0.biometricData?.heartRate }
                #expect(stored == [61, 62, 63, 64, 65, 66], "every metric once, in order")
            }
        }
    }

    @Test func aBatchTheServiceRefusesIsSentOneByOneSoOnlyTheBadWriteIsDeadLettered() async throws {
        let transport = MockTransport { request, _ in
            let path = request.path ?? ""
            if path.hasSuffix("/wellness-bulk") { return MockResponse(status: .unprocessableContent) }
            if path.hasSuffix("/2026-11-22") { return MockResponse(status: .unprocessableContent, headers: [.contentType: "application/json"], body: Data(#"{"message": "mood is a scale from 1 to 4"}"#.utf8)) }
            return MockResponse(status: .ok, headers: [.contentType: "application/json"], body: Data(#"{"id": "2026-11-21"}"#.utf8))
        }
        let monitor = ConnectivityMonitor(initial: .offline)
        let queue = OfflineQueue(storage: MemoryQueueStorage(), batchers: [IntervalsEndpoints.wellnessBatcher()])
        let intervals = IntervalsClient(baseURL: URL(string: "https://intervals.test")!, transport: transport, auth: .apiKey("k")) {
            $0.offlineQueue = queue
            $0.connectivity = monitor
            $0.retryPolicy = .none
        }
        let events = queue.events()
        var ids: [String] = []
        for (offset, mood) in [1, 9, 2].enumerated() {
            var day = Wellness(id: CalendarDay("2026-11-21")!.adding(days: offset))
            day.mood = mood
            ids += [await courierError { try await intervals.wellness.save(day) }?.queuedRequestID].compactMap { $0 }
        }
        monitor.report(.pathChanged(.online))
        await queue.replay()
        #expect(await Self.outcomes(3, from: events) == ["delivered \(ids[0])", "dead \(ids[1])", "delivered \(ids[2])"])
        #expect(transport.requests.map { $0.request.path ?? "" } == [
            "/api/v1/athlete/0/wellness-bulk",
            "/api/v1/athlete/0/wellness/2026-11-21", "/api/v1/athlete/0/wellness/2026-11-22", "/api/v1/athlete/0/wellness/2026-11-23",
        ])
        let dead = try await queue.deadLetters()
        #expect(dead.map(\.id) == [ids[1]])
        #expect(dead.first?.deadLetterStatus == 422)
    }

    @Test func aQueuedWriteIsDeliveredByItsStatusWhateverItsAnswerSays() async throws {
        // The service took the upload (201) but answers a body that breaks the document: the
        // write is delivered, not lost, retried or dead-lettered, and the body is in the event.
        let transport = MockTransport { _, _ in MockResponse(status: .created, headers: [.contentType: "application/json"], body: Data("{not json".utf8)) }
        let monitor = ConnectivityMonitor(initial: .offline)
        let queue = OfflineQueue(storage: MemoryQueueStorage())
        let clarity = ClarityClient(baseURL: URL(string: "https://clarity.test")!, transport: transport, store: InMemoryCredentialStore(Credential(accessToken: "a", accountID: "u_1"))) {
            $0.offlineQueue = queue
            $0.connectivity = monitor
        }
        let events = queue.events()
        let upload = HealthDataUpload(clientTimestamp: Date(), metrics: [HealthMetric(metricType: "heart_rate")], uploadSource: "apple_health", userId: "u_1")
        let queued = await courierError { _ = try await clarity.submitHealthData(upload) }
        let id = try #require(queued?.queuedRequestID)
        monitor.report(.pathChanged(.online))
        await queue.replay()
        #expect(await Self.outcomes(1, from: events) == ["delivered \(id)"])
        #expect(try await queue.pending().isEmpty)
        #expect(try await queue.deadLetters().isEmpty)
    }

    @Test func aBatchThatFailsWithA503CountsAnAttemptForEachWriteAndKeepsThemAll() async throws {
        let transport = MockTransport { _, _ in MockResponse(status: .serviceUnavailable) }
        let monitor = ConnectivityMonitor(initial: .offline)
        // A minute between attempts: no second round comes while the test reads the queue.
        let queue = OfflineQueue(
            storage: MemoryQueueStorage(), backoff: Backoff(.constant(.seconds(60)), maxDelay: .seconds(60), jitter: .none),
            batchers: [IntervalsEndpoints.wellnessBatcher()]
        )
        let intervals = IntervalsClient(baseURL: URL(string: "https://intervals.test")!, transport: transport, auth: .apiKey("k")) {
            $0.offlineQueue = queue
            $0.connectivity = monitor
            $0.retryPolicy = .none
        }
        let events = queue.events()
        var ids: [String] = []
        for offset in 0..<3 {
            var day = Wellness(id: CalendarDay("2026-11-21")!.adding(days: offset))
            day.steps = 1_000 * (offset + 1)
            ids += [await courierError { try await intervals.wellness.save(day) }?.queuedRequestID].compactMap { $0 }
        }
        monitor.report(.pathChanged(.online))
        await queue.replay()
        let failed: [String: Int] = await withDeadline(.seconds(20)) { () async -> [String: Int] in
            var seen: [String: Int] = [:]
            for await event in events {
                if case .failed(let id, _, let attempts) = event { seen[id] = attempts }
                if seen.count == 3 { break }
            }
            return seen
        } ?? [:]
        let expected = Dictionary(uniqueKeysWithValues: ids.map { ($0, 1) })
        #expect(failed == expected, "each write counts the one attempt")
        #expect(transport.requests.map { $0.request.path ?? "" } == ["/api/v1/athlete/0/wellness-bulk"], "one call, not three")
        let pending = try await queue.pending()
        #expect(pending.map(\.id) == ids)
        #expect(pending.allSatisfy { $0.attempts == 1 && $0.lastError != nil })
    }
}
