import ClarityAPI
import Courier
import CourierSQLite
import Foundation
import RadarAPI
import ReferenceServer

/// The offline part of the demo: writes queued durably while offline or when the connection
/// breaks, replayed in order when connectivity returns, each applied once; a refused write in
/// the dead-letter list.
struct DemoOffline {
    let server: ReferenceServer
    let baseURL: URL
    let transport: any Transport
    let report: DemoReport

    func run() async throws {
        print("\n── Offline: a durable write queue with idempotency keys")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-demo-queue-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("queue.sqlite")
        let queue = OfflineQueue(storage: try SQLiteQueueStorage(url: file))
        let connectivity = ConnectivityMonitor(initial: .offline)
        let clarity = ClarityClient(baseURL: baseURL, transport: transport) { configuration in
            configuration.offlineQueue = queue
            configuration.connectivity = connectivity
            configuration.retryPolicy = .none
        }
        let demo = ReferenceServerConfiguration()
        let tokens = try await server.issueTokens(email: demo.demoEmail)
        try await clarity.session.signIn(tokens.credential(issuedAt: Date()))
        let radar = RadarClient(client: clarity.client.rebased(to: baseURL))
        var events = queue.events().makeAsyncIterator()

        var queued: [String] = []
        let tooLong = String(repeating: "x", count: 300)
        for topic in ["Offline note 1", "Offline note 2", tooLong, "Offline note 3"] {
            if case .queued(let id) = try await radar.client.sendOrQueue(RadarEndpoints.create(topic: topic)) { queued.append(id) }
        }
        print("  the device is offline: \(queued.count) writes queued (one with a topic the server will refuse), none tried; the caller got .queued, not an error")
        let bytes = (try? Data(contentsOf: file)) ?? Data()
        let walBytes = (try? Data(contentsOf: URL(fileURLWithPath: file.path + "-wal"))) ?? Data()
        let leaks = [tokens.accessToken, tokens.refreshToken].filter { (bytes + walBytes).range(of: Data($0.utf8)) != nil }.count
        let mode = ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.posixPermissions] as? NSNumber)?.intValue ?? 0
        print("  stored in \(file.lastPathComponent) (mode \(String(mode, radix: 8)), synchronous=FULL); tokens found in the file: \(leaks)")

        // Back online: the queue replays by itself. Wait for those writes to settle before the
        // fault below, so that the dropped connection is the next write's and not a replay's.
        await server.resetCounters()
        connectivity.report(.requestSucceeded)
        print("  back online: the queue replays by itself, in order")
        var delivered = 0
        var deadLettered = 0
        func settle(_ count: Int) async {
            while delivered + deadLettered < count, let event = await events.next() {
                switch event {
                case .delivered(_, let status, _): delivered += 1; print("  delivered → \(status)")
                case .deadLettered(_, let reason): deadLettered += 1; print("  dead-lettered: \(reason)")
                default: break
                }
            }
        }
        await queue.replay() // it also starts by itself; this waits for it
        await settle(queued.count)

        server.faults.inject(.dropConnection, count: 1, method: "POST", path: "/api/radars")
        if case .queued(let id) = try await radar.client.sendOrQueue(RadarEndpoints.create(topic: "Offline note 4")) {
            queued.append(id)
            print("  the next write's connection drops before the answer → queued too, with its Idempotency-Key")
        }
        await queue.replay()
        await settle(queued.count)

        let posts = await server.requestCount(method: "POST", path: "/api/radars")
        let notes = try await radar.list(limit: 100).items.filter { $0.topic.hasPrefix("Offline note") }
        print("  the server saw \(posts) POSTs and holds \(notes.count) offline notes, in order: \(notes.reversed().map(\.topic) == (1...4).map { "Offline note \($0)" })")
        for dead in try await queue.deadLetters() {
            print("  dead letter kept for the app: \(dead.deadLetterStatus.map(String.init) ?? "-") \(dead.deadLetterBody?.prefix(60) ?? ""); discarded")
            try await queue.discard(id: dead.id)
        }
        for note in notes { try await radar.delete(id: note.id) }

        report.set("offline", "queued", queued.count)
        report.set("offline", "delivered", delivered)
        report.set("offline", "dead_lettered", deadLettered)
        report.set("offline", "server_records", notes.count)
        report.set("offline", "duplicates", notes.count - Set(notes.map(\.topic)).count)
        report.set("offline", "tokens_in_queue_file", leaks)
    }
}
