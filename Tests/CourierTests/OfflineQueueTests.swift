import ClarityAPI
@testable import Courier
import CourierAsyncHTTPClient
import CourierSQLite
import Foundation
import RadarAPI
import RadarCore
import ReferenceServer
import Testing

/// A free loopback port: bound by a throwaway server, then released.
func freeLoopbackPort() async throws -> Int {
    let probe = ReferenceServer(configuration: .forTests())
    let url = try await probe.start()
    await probe.stop()
    return try #require(url.port)
}

/// Every radar the demo user can see whose topic starts with `prefix`, read page by page.
func radarTopics(prefix: String, server: ReferenceServer, url: URL) async throws -> [String] {
    let transport = AsyncHTTPClientTransport()
    let radar = RadarClient(baseURL: url, transport: transport, token: try await demoToken(server))
    var topics: [String] = []
    do {
        for try await page in Pages.offsetLimit(
            client: radar.client, limit: 100,
            request: { offset, limit in RadarEndpoints.list(limit: limit, offset: offset) },
            itemCount: { $0.count }
        ) {
            topics += page.map(\.topic).filter { $0.hasPrefix(prefix) }
        }
        try await transport.shutdown()
    } catch {
        try? await transport.shutdown()
        throw error
    }
    return topics
}

@Suite("The offline queue against the reference server")
struct OfflineQueueTests {
    /// A signed-in CLARITY client whose writes may be queued in a SQLite queue, for a server
    /// that may be down: the credential is issued by the server object, not over the network.
    private func withQueueingClient(
        server: ReferenceServer, url: URL, maxAttempts: Int = 5,
        _ body: (ClarityClient, OfflineQueue, URL) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-queue-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("queue.sqlite")
        let queue = OfflineQueue(storage: try SQLiteQueueStorage(url: database), maxAttempts: maxAttempts, backoff: Backoff(.constant(.seconds(60)), maxDelay: .seconds(60), jitter: .none))
        let transport = AsyncHTTPClientTransport()
        let clarity = ClarityClient(baseURL: url, transport: transport) { configuration in
            configuration.offlineQueue = queue
            configuration.retryPolicy = .none
        }
        let tokens = try await server.issueTokens(email: ReferenceServerConfiguration().demoEmail)
        try await clarity.session.signIn(tokens.credential(issuedAt: Date()))
        do {
            try await body(clarity, queue, database)
            try await transport.shutdown()
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }

    @Test func writesQueuedWhileTheServerIsDownAreDeliveredInOrderWhenItIsBack() async throws {
        let port = try await freeLoopbackPort()
        let server = ReferenceServer(configuration: .forTests(port: port))
        let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
        try await withQueueingClient(server: server, url: url) { clarity, queue, _ in
            var events = queue.events().makeAsyncIterator()
            var ids: [String] = []
            for index in 0..<3 {
                guard case .queued(let id) = try await radarClient(sharing: clarity).client.sendOrQueue(RadarEndpoints.create(topic: "offline-order-\(index)")) else {
                    Issue.record("write \(index) reached a server that is down")
                    return
                }
                ids.append(id)
            }
            // The queue's start-up replay (when the client attached it) may already have tried
            // the first write against the down server: a `.failed` event, which is not an error.
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

            _ = try await server.start()
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
            let topics = try await radarTopics(prefix: "offline-order-", server: server, url: url)
            #expect(Set(topics) == ["offline-order-0", "offline-order-1", "offline-order-2"])
            #expect(topics.count == 3)
        }
        await server.stop()
    }

    @Test func aQueuedWriteStoresNoSecretAndIsSignedAgainAtReplay() async throws {
        let port = try await freeLoopbackPort()
        let server = ReferenceServer(configuration: .forTests(port: port))
        let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
        try await withQueueingClient(server: server, url: url) { clarity, queue, database in
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

            _ = try await server.start()
            await queue.replay()
            #expect(try await queue.pending().isEmpty)
            #expect(try await queue.deadLetters().isEmpty, "signed at replay, so no 401")
            #expect(try await radarTopics(prefix: "offline-secret", server: server, url: url) == ["offline-secret"])
        }
        await server.stop()
    }

    @Test func aReplayAskedForDuringARoundReturnsOnlyAfterARoundOfItsOwn() async throws {
        let port = try await freeLoopbackPort()
        let server = ReferenceServer(configuration: .forTests(port: port))
        let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
        try await withQueueingClient(server: server, url: url) { clarity, queue, _ in
            guard case .queued = try await radarClient(sharing: clarity).client.sendOrQueue(RadarEndpoints.create(topic: "offline-round")) else {
                Issue.record("a write reached a server that is down")
                return
            }
            _ = try await server.start()
            server.faults.inject(.delay(.milliseconds(300)), count: 1, method: "POST", path: "/api/radars")
            let slowRound = Task { await queue.replay() }
            // Bounded wait until the slow round's delivery has reached the server.
            for _ in 0..<400 where await server.requestCount(method: "POST", path: "/api/radars") == 0 {
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(await server.requestCount(method: "POST", path: "/api/radars") == 1)
            await queue.replay()
            #expect(try await queue.pending().isEmpty, "replay() returned while the write was still in flight")
            await slowRound.value
            #expect(await server.requestCount(method: "POST", path: "/api/radars") == 1, "delivered once")
            #expect(try await radarTopics(prefix: "offline-round", server: server, url: url) == ["offline-round"])
        }
        await server.stop()
    }

    @Test func aReplayWaitingOnACancelledReplayStillGetsAWholeRound() async throws {
        let port = try await freeLoopbackPort()
        let server = ReferenceServer(configuration: .forTests(port: port))
        let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
        try await withQueueingClient(server: server, url: url) { clarity, queue, _ in
            guard case .queued = try await radarClient(sharing: clarity).client.sendOrQueue(RadarEndpoints.create(topic: "offline-cancelled")) else {
                Issue.record("a write reached a server that is down")
                return
            }
            _ = try await server.start()
            server.faults.inject(.delay(.seconds(2)), count: 1, method: "POST", path: "/api/radars")
            let cancelledRound = Task { await queue.replay() }
            for _ in 0..<400 where await server.requestCount(method: "POST", path: "/api/radars") == 0 {
                try await Task.sleep(for: .milliseconds(5))
            }
            let waiting = Task { await queue.replay() }
            // Bounded wait until the second replay waits for a round of its own.
            for _ in 0..<400 where await queue.roundWaiterCount == 0 {
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(await queue.roundWaiterCount == 1)
            cancelledRound.cancel()
            await cancelledRound.value
            await waiting.value
            #expect(try await queue.pending().isEmpty, "the waiting replay returned before a round of its own")
            #expect(try await radarTopics(prefix: "offline-cancelled", server: server, url: url) == ["offline-cancelled"], "applied once: the retry carries the same idempotency key")
        }
        await server.stop()
    }

    @Test func refusedAndExhaustedWritesAreDeadLetteredNeverDropped() async throws {
        let port = try await freeLoopbackPort()
        let server = ReferenceServer(configuration: .forTests(port: port))
        let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
        try await withQueueingClient(server: server, url: url, maxAttempts: 2) { clarity, queue, _ in
            guard case .queued(let exhausted) = try await radarClient(sharing: clarity).client.sendOrQueue(RadarEndpoints.create(topic: "offline-exhausted")),
                  case .queued(let refused) = try await radarClient(sharing: clarity).client.sendOrQueue(RadarEndpoints.create(topic: String(repeating: "x", count: 300))) else {
                Issue.record("not queued")
                return
            }
            _ = try await server.start()
            server.faults.inject(.status(503), count: 2, method: "POST", path: "/api/radars")
            // The first write fails twice with 503 and is dead-lettered after its 2 attempts;
            // then the second is refused (422) and dead-lettered at once.
            for _ in 0..<20 where try await queue.pending().count > 0 {
                await queue.replay()
                try await Task.sleep(for: .milliseconds(20))
            }
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
            #expect(try await radarTopics(prefix: "offline-exhausted", server: server, url: url) == ["offline-exhausted"])
            try await queue.discard(id: refused)
            #expect(try await queue.deadLetters().isEmpty)
        }
        await server.stop()
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
            let transport = AsyncHTTPClientTransport()
            let client = APIClient(configuration: configuration, transport: transport)
            do {
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
                try await transport.shutdown()
            } catch {
                try? await transport.shutdown()
                throw error
            }
        }
    }
}
