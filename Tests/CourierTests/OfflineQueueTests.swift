import ClarityAPI
@testable import Courier
import CourierCLI
import CourierAsyncHTTPClient
import CourierSQLite
import Foundation
import RadarAPI
import RadarCore
import ReferenceServer
import Testing

/// Every radar the demo user can see whose topic starts with `prefix`, read page by page.
func radarTopics(prefix: String, server: ReferenceServer, url: URL) async throws -> [String] {
    try await withTransport(AsyncHTTPClientTransport()) { transport in
        let radar = RadarClient(baseURL: url, transport: transport, token: try await demoToken(server))
        var topics: [String] = []
        for try await page in Pages.offsetLimit(
            client: radar.client, limit: 100,
            request: { offset, limit in RadarEndpoints.list(limit: limit, offset: offset) },
            itemCount: { $0.count }
        ) {
            topics += page.map(\.topic).filter { $0.hasPrefix(prefix) }
        }
        return topics
    }
}

@Suite("The offline queue against the reference server", .timeLimit(.minutes(2)))
struct OfflineQueueTests {
    /// A signed-in CLARITY client whose writes may be queued in a SQLite queue, for a server
    /// that may be down: the credential is issued by the server object, not over the network.
    /// The body runs once the client has attached the queue and its start-up round (over an
    /// empty queue) is over, so no delivery happens but those the test asks for.
    private func withQueueingClient(
        server: ReferenceServer, url: URL, maxAttempts: Int = 5, networkMiddleware: [any Middleware] = [],
        _ body: (ClarityClient, OfflineQueue, URL) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-queue-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("queue.sqlite")
        let queue = OfflineQueue(storage: try SQLiteQueueStorage(url: database), maxAttempts: maxAttempts, backoff: Backoff(.constant(.seconds(60)), maxDelay: .seconds(60), jitter: .none))
        try await withTransport(AsyncHTTPClientTransport()) { transport in
            let clarity = ClarityClient(baseURL: url, transport: transport) { configuration in
                configuration.offlineQueue = queue
                configuration.retryPolicy = .none
                configuration.networkMiddleware = networkMiddleware
            }
            #expect(await Self.wait(for: .attached, on: queue), "the client did not attach the queue")
            let tokens = try await server.issueTokens(email: ReferenceServerConfiguration().demoEmail)
            try await clarity.session.signIn(tokens.credential(issuedAt: Date()))
            try await body(clarity, queue, database)
        }
    }

    /// Waits, at most ten seconds, until `condition` holds on the queue; returns whether it did.
    private static func wait(for condition: OfflineQueue.TestCondition, on queue: OfflineQueue) async -> Bool {
        await withDeadline(.seconds(10)) { await queue.waitUntil(condition) } != nil
    }

    @Test func writesQueuedWhileTheServerIsDownAreDeliveredInOrderWhenItIsBack() async throws {
        try await withGatedServer { server, gate in
            try await withQueueingClient(server: server, url: gate.url) { clarity, queue, _ in
                var events = queue.events().makeAsyncIterator()
                var ids: [String] = []
                for index in 0..<3 {
                    guard case .queued(let id) = try await radarClient(sharing: clarity).client.sendOrQueue(RadarEndpoints.create(topic: "offline-order-\(index)")) else {
                        Issue.record("write \(index) reached a server that is down")
                        return
                    }
                    ids.append(id)
                }
                // A delivery tried while the server is down would be a `.failed` event: not an
                // error, as long as it failed for the right reason.
                var queuedInOrder: [String] = []
                while queuedInOrder.count < ids.count, let event = await events.next() {
                    switch event {
                    case .queued(let id): queuedInOrder.append(id)
                    case .failed(_, let error, _): #expect(error.code == .cannotConnect)
                    case .delivered, .deadLettered, .dropped: Issue.record("unexpected \(event) while the server is down")
                    }
                }
                #expect(queuedInOrder == ids)
                #expect(try await queue.pending().map(\.id) == ids)

                try await gate.open()
                await queue.replay()
                var delivered: [String] = []
                while delivered.count < 3, let event = await events.next() {
                    if case .delivered(let id, let status, let body) = event {
                        delivered.append(id)
                        #expect(status == 201)
                        #expect(String(decoding: body, as: UTF8.self).contains("offline-order"))
                    }
                }
                #expect(delivered == ids, "first in, first out")
                #expect(try await queue.pending().isEmpty)
                let topics = try await radarTopics(prefix: "offline-order-", server: server, url: gate.url)
                #expect(Set(topics) == ["offline-order-0", "offline-order-1", "offline-order-2"])
                #expect(topics.count == 3)
            }
        }
    }

    @Test func aQueuedWriteStoresNoSecretAndIsSignedAgainAtReplay() async throws {
        try await withGatedServer { server, gate in
            try await withQueueingClient(server: server, url: gate.url) { clarity, queue, database in
                var write = RadarEndpoints.create(topic: "offline-secret")
                write.headers[.cookie] = "session=cookie-secret-value"
                _ = try await radarClient(sharing: clarity).client.sendOrQueue(write)
                let credential = try #require(try await clarity.session.credential)
                var bytes = Data()
                for suffix in ["", "-wal"] {
                    bytes += (try? Data(contentsOf: URL(fileURLWithPath: database.path + suffix))) ?? Data()
                }
                #expect(!bytes.isEmpty)
                for secret in [credential.accessToken, credential.refreshToken ?? "-", "cookie-secret-value"] {
                    #expect(bytes.range(of: Data(secret.utf8)) == nil, "a secret reached the queue's file")
                }
                for secret in [credential.accessToken, "cookie-secret-value"] {
                    #expect(bytes.range(of: Data(Data(secret.utf8).base64EncodedString().utf8)) == nil, "a secret reached the file in base 64")
                }
                let stored = try #require(try await queue.pending().first)
                #expect(String(decoding: stored.body, as: UTF8.self).contains("offline-secret"), "the write itself is there")
                #expect(!stored.fields.contains { ["authorization", "cookie"].contains($0.name.lowercased()) })
                let attributes = try FileManager.default.attributesOfItem(atPath: database.path)
                #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

                try await gate.open()
                await queue.replay()
                #expect(try await queue.pending().isEmpty)
                #expect(try await queue.deadLetters().isEmpty, "signed at replay, so no 401")
                #expect(try await radarTopics(prefix: "offline-secret", server: server, url: gate.url) == ["offline-secret"])
            }
        }
    }

    @Test func aReplayAskedForDuringARoundReturnsOnlyAfterARoundOfItsOwn() async throws {
        try await withGatedServer { server, gate in
            let hold = ResponseHold(method: .post, path: "/api/radars")
            try await withQueueingClient(server: server, url: gate.url, networkMiddleware: [hold.middleware]) { clarity, queue, _ in
                guard case .queued = try await radarClient(sharing: clarity).client.sendOrQueue(RadarEndpoints.create(topic: "offline-round")) else {
                    Issue.record("a write reached a server that is down")
                    return
                }
                try await gate.open()
                let round = Task { await queue.replay() }
                // The round's delivery has reached the server, and its answer is held: the
                // round is under way until the test lets the answer go.
                #expect(await hold.held.waitUntil(atLeast: 1))
                #expect(await server.requestCount(method: "POST", path: "/api/radars") == 1)
                let returned = EventCounter()
                let asked = Task {
                    await queue.replay()
                    returned.record()
                }
                // Asked for during the round, the replay either waits for a round of its own
                // (right) or returns at once (wrong): whichever happens first.
                await waitForEither({ await queue.waitUntil(.roundWaiters(atLeast: 1)) }, { _ = await returned.waitUntil(atLeast: 1) })
                #expect(returned.count == 0, "replay() returned while the write was still in flight")
                #expect(await queue.roundWaiterCount == 1)
                hold.release()
                await asked.value
                #expect(try await queue.pending().isEmpty, "replay() returned before a round of its own was over")
                await round.value
                #expect(await server.requestCount(method: "POST", path: "/api/radars") == 1, "delivered once")
                #expect(try await radarTopics(prefix: "offline-round", server: server, url: gate.url) == ["offline-round"])
            }
        }
    }

    @Test func aReplayWaitingOnACancelledReplayStillGetsAWholeRound() async throws {
        try await withGatedServer { server, gate in
            let hold = ResponseHold(method: .post, path: "/api/radars")
            try await withQueueingClient(server: server, url: gate.url, networkMiddleware: [hold.middleware]) { clarity, queue, _ in
                guard case .queued = try await radarClient(sharing: clarity).client.sendOrQueue(RadarEndpoints.create(topic: "offline-cancelled")) else {
                    Issue.record("a write reached a server that is down")
                    return
                }
                try await gate.open()
                let cancelledRound = Task { await queue.replay() }
                // The server has applied the write; its answer is held, so the round is under way.
                #expect(await hold.held.waitUntil(atLeast: 1))
                let waiting = Task { await queue.replay() }
                #expect(await Self.wait(for: .roundWaiters(atLeast: 1), on: queue), "the second replay waits for a round of its own")
                cancelledRound.cancel()
                await cancelledRound.value
                await waiting.value
                #expect(try await queue.pending().isEmpty, "the waiting replay returned before a round of its own")
                #expect(await server.requestCount(method: "POST", path: "/api/radars") == 2, "sent again after the cancelled round")
                #expect(try await radarTopics(prefix: "offline-cancelled", server: server, url: gate.url) == ["offline-cancelled"], "applied once: the retry carries the same idempotency key")
            }
        }
    }

    @Test func refusedAndExhaustedWritesAreDeadLetteredNeverDropped() async throws {
        try await withGatedServer { server, gate in
            try await withQueueingClient(server: server, url: gate.url, maxAttempts: 2) { clarity, queue, _ in
                guard case .queued(let exhausted) = try await radarClient(sharing: clarity).client.sendOrQueue(RadarEndpoints.create(topic: "offline-exhausted")),
                      case .queued(let refused) = try await radarClient(sharing: clarity).client.sendOrQueue(RadarEndpoints.create(topic: String(repeating: "x", count: 300))) else {
                    Issue.record("not queued")
                    return
                }
                try await gate.open()
                server.faults.inject(.status(503), count: 2, method: "POST", path: "/api/radars")
                // Round 1: the first write is answered 503 (attempt 1 of 2) and holds back the
                // second, behind it in the same queue.
                await queue.replay()
                #expect(try await queue.pending().map(\.id) == [exhausted, refused])
                #expect(try await queue.deadLetters().isEmpty)
                // Round 2: 503 again, its last attempt, so it is dead-lettered; then the second
                // is refused (422) and dead-lettered at once.
                await queue.replay()
                #expect(try await queue.pending().isEmpty)
                let dead = try await queue.deadLetters()
                #expect(Set(dead.map(\.id)) == [refused, exhausted])
                let refusal = try #require(dead.first { $0.id == refused })
                #expect(refusal.deadLetterStatus == 422)
                #expect(refusal.deadLetterBody?.contains("topic") == true)
                let tired = try #require(dead.first { $0.id == exhausted })
                #expect(tired.attempts == 2)
                #expect(tired.deadLetterStatus == 503)

                try await queue.retry(id: exhausted)
                #expect(try await queue.deadLetters().map(\.id) == [refused])
                #expect(try await radarTopics(prefix: "offline-exhausted", server: server, url: gate.url) == ["offline-exhausted"])
                try await queue.discard(id: refused)
                #expect(try await queue.deadLetters().isEmpty)
            }
        }
    }

    @Test func aWriteWhoseConnectionBrokeIsQueuedAndAppliedOnce() async throws {
        try await withRunningServer { server, url in
            try await withQueueingClient(server: server, url: url) { clarity, queue, _ in
                server.faults.inject(.dropConnection, count: 1, method: "POST", path: "/api/radars")
                guard case .queued = try await radarClient(sharing: clarity).client.sendOrQueue(RadarEndpoints.create(topic: "offline-dropped")) else {
                    Issue.record("a dropped connection was not queued")
                    return
                }
                await queue.replay()
                #expect(try await queue.pending().isEmpty)
                #expect(try await radarTopics(prefix: "offline-dropped", server: server, url: url) == ["offline-dropped"])
            }
        }
    }

    @Test func whileOfflineAQueueableWriteIsQueuedWithoutTryingAndOthersFailAsUsual() async throws {
        try await withRunningServer { server, url in
            let monitor = ConnectivityMonitor(initial: .offline)
            let queue = OfflineQueue(storage: MemoryQueueStorage())
            var configuration = ClientConfiguration(baseURL: url)
            configuration.offlineQueue = queue
            configuration.connectivity = monitor
            configuration.middleware.append(BearerTokenMiddleware(token: try await demoToken(server)))
            try await withTransport { transport in
                let client = APIClient(configuration: configuration, transport: transport)
                let outcome = try await client.sendOrQueue(RadarEndpoints.create(topic: "offline-monitor"))
                if case .queued = outcome {} else { Issue.record("sent while the monitor said offline") }
                #expect(await server.requestCount(method: "POST", path: "/api/radars") == 0, "the queueable write was not tried while offline")
                // A write to another URL: one to the queued write's URL would wait for it.
                let notQueueable = await courierError { _ = try await client.send(RadarEndpoints.interpret(topic: "offline-plain")) }
                #expect(notQueueable == nil, "the server is up: the plain write succeeds and marks online")
                #expect(monitor.status == .online)
                // Coming back online starts a replay by itself; this call waits for it.
                await queue.replay()
                #expect(try await queue.pending().isEmpty, "back online, the queued write is delivered")
                #expect(await server.requestCount(method: "POST", path: "/api/interpret") == 1, "the plain write went")
                #expect(await server.requestCount(method: "POST", path: "/api/radars") == 1, "the queued one, once")
            }
        }
    }
}
