import Courier
import CourierPostgres
import Foundation
import ReferenceServer
#if canImport(Glibc)
import Glibc
#endif

/// A fleet on one machine: a PostgreSQL (a private one, or the one `--postgres` names), the
/// reference server in this process, and `courier fleet-worker` processes sharing their state
/// through the database. `courier fleet` and `courier bench --only fleet` drive it; every
/// figure is what the server saw.
struct FleetRun {
    /// The account of the credential every process shares in the refresh run.
    static let sharedAccount = "fleet-shared"

    let server: ReferenceServer
    let serverURL: URL
    let postgresURL: String
    /// The private server, when this run started one (it can then be restarted).
    let local: LocalPostgresServer?
    let database: PostgresDatabase
    /// Names this run's outboxes, quotas and caches apart from earlier runs' in the same database.
    let runID = String(UUID().uuidString.prefix(8)).lowercased()

    /// Starts the database (unless given) and the reference server.
    static func start(postgres: String?) async throws -> FleetRun {
        var local: LocalPostgresServer?
        let url: String
        if let postgres {
            url = postgres
        } else {
            let started = try await LocalPostgresServer.start(durable: true)
            local = started
            do { url = try await started.createDatabase("courier_fleet") } catch {
                try? await started.stop()
                throw error
            }
        }
        do {
            let database = try await PostgresDatabase.connect(url: url, maximumConnections: 16)
            let server = ReferenceServer(configuration: .embedded)
            let serverURL = try await server.start()
            return FleetRun(server: server, serverURL: serverURL, postgresURL: url, local: local, database: database)
        } catch {
            try? await local?.stop()
            throw error
        }
    }

    /// Stops the server, the pool and the private database.
    func stop() async {
        await server.stop()
        await database.shutdown()
        try? await local?.stop()
    }

    func worker(_ role: String, index: Int, store: String, _ extra: [String] = []) throws -> FleetProcess {
        try FleetProcess(
            name: "\(role)-\(index)",
            arguments: [role, "--server", serverURL.absoluteString, "--index", "\(index)", "--store", store] + extra,
            environment: [FleetWorkerCommand.postgresVariable: postgresURL]
        )
    }

    /// Waits until `condition` holds, looking every 100 ms, for at most `limit`.
    func until(_ limit: Duration, _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try await condition()
    }

    /// What a worker printed as `ok N failed M`.
    static func okAndFailed(_ process: FleetProcess) -> (ok: Int, failed: Int) {
        for line in process.lines.reversed() {
            let words = line.text.split(separator: " ")
            if words.count == 4, words[0] == "ok", let ok = Int(words[1]), let failed = Int(words[3]) { return (ok, failed) }
        }
        return (0, 0)
    }

    // MARK: - Outbox

    struct OutboxFigures {
        var workers = 0, writes = 0, applied = 0, duplicates = 0, redeliveries = 0, lost = 0, orderViolations = 0
        var seconds = 0.0
        var killed = 0
        var outageCalls = 0, outageFailedTyped = 0, recoveredProcesses = 0
        var perSecond: Double { seconds > 0 ? Double(writes) / seconds : 0 }
    }

    /// What disturbs an outbox run.
    enum Disturbance { case none, killOneWorker, restartDatabase }

    /// Queues `writes` writes for `accounts` accounts, then lets `workers` processes deliver them.
    func outbox(workers: Int, writes: Int, accounts: Int, disturbance: Disturbance) async throws -> OutboxFigures {
        await server.fleet.reset()
        let store = "outbox-\(runID)-\(workers)-\(writes)"
        let storage = PostgresQueueStorage(database: database, name: store)
        for account in 0..<accounts {
            let name = "athlete-\(account)"
            try await PostgresCredentialStore(database: database, account: name)
                .save(Credential(accessToken: server.fleet.accountToken(for: name), accountID: name))
        }
        // One appender per group of accounts keeps each account's writes in order.
        let base = serverURL.absoluteString
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<8 {
                group.addTask {
                    var seqs: [Int: Int] = [:]
                    for number in 0..<writes where (number % accounts) % 8 == lane {
                        let account = number % accounts
                        let seq = (seqs[account] ?? 0) + 1
                        seqs[account] = seq
                        try await storage.append(QueuedRequest(
                            queue: OfflineQueue.defaultQueueName, method: "POST", url: "\(base)/fleet/accounts/athlete-\(account)/writes",
                            fields: [.init(name: "Content-Type", value: "application/json")],
                            body: Data("{\"write\":\(number),\"seq\":\(seq)}".utf8), idempotencyKey: UUID().uuidString,
                            createdAt: Date(), account: "athlete-\(account)"
                        ))
                    }
                }
            }
            try await group.waitForAll()
        }
        var figures = OutboxFigures(workers: workers, writes: writes)
        let started = ContinuousClock.now
        var processes = try (0..<workers).map { try worker("outbox", index: $0, store: store, ["--lease", "3"]) }
        var resumedAt: Date?
        do {
            switch disturbance {
            case .none: break
            case .killOneWorker:
                _ = try await until(.seconds(300)) { await server.fleet.stats().applied >= writes / 4 }
                processes[0].signal(SIGKILL)
                _ = await processes[0].exit()
                figures.killed = 1
                processes.append(try worker("outbox", index: workers, store: store, ["--lease", "3"]))
            case .restartDatabase:
                guard let local else { break }
                _ = try await until(.seconds(300)) { await server.fleet.stats().applied >= writes / 3 }
                try await local.halt()
                // Calls during the outage: each fails with a typed error, none hangs.
                for number in 0..<5 {
                    figures.outageCalls += 1
                    do {
                        try await storage.append(QueuedRequest(
                            queue: "outage", method: "POST", url: "\(base)/fleet/accounts/athlete-0/writes", fields: [],
                            body: Data("{\"write\":\(writes + number),\"seq\":0}".utf8), idempotencyKey: UUID().uuidString, createdAt: Date()
                        ))
                    } catch is PostgresStoreError {
                        figures.outageFailedTyped += 1
                    } catch {}
                }
                try await Task.sleep(for: .seconds(2))
                try await local.resume()
                resumedAt = Date()
            }
            let done = try await until(.seconds(600)) {
                let stats = await server.fleet.stats()
                guard stats.applied - stats.duplicates >= writes else { return false }
                return (try? await storage.items().isEmpty) ?? false
            }
            figures.seconds = (ContinuousClock.now - started).timeInterval
            if !done { print("  the fleet did not deliver every write within 10 minutes") }
        } catch {
            for process in processes { process.signal(SIGTERM) }
            throw error
        }
        if let resumedAt {
            figures.recoveredProcesses = processes.filter { process in
                process.process.isRunning && process.lines.contains { $0.text == "delivered" && $0.at > resumedAt }
            }.count
        }
        for process in processes { process.signal(SIGTERM) }
        for process in processes { _ = await process.exit() }
        let stats = await server.fleet.stats()
        figures.applied = stats.applied - stats.duplicates
        figures.duplicates = stats.duplicates
        figures.redeliveries = stats.redeliveries
        figures.orderViolations = stats.orderViolations
        figures.lost = writes - figures.applied
        return figures
    }
}
