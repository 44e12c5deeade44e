import ArgumentParser
import Foundation

/// `courier fleet`: several processes sharing one outbox, quota, credential and cache through
/// PostgreSQL, against the reference server, and what the server saw.
struct FleetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet",
        abstract: "Run worker processes that share an outbox, a quota, a credential and a cache through PostgreSQL, and print what the server saw.",
        discussion: """
            Without --postgres it starts a private PostgreSQL (initdb and pg_ctl from the machine's \
            PostgreSQL, on a Unix socket in a temporary folder) and removes it afterwards.
            """
    )

    @Option(help: "A PostgreSQL URL (postgres://user:password@host/database) instead of a private server.")
    var postgres: String?
    @Option(help: "Worker processes.")
    var workers = 4
    @Option(help: "Writes queued in the shared outbox.")
    var writes = 2_000
    @Option(help: "Accounts the writes belong to (each signed with its own credential).")
    var accounts = 20
    @Option(help: "Calls the quota run makes, across the fleet.")
    var quotaCalls = 100
    @Option(help: "The shared quota's limit per window.")
    var quotaLimit = 20
    @Option(help: "The shared quota's window, in seconds.")
    var quotaWindow = 3

    func validate() throws {
        guard (1...32).contains(workers) else { throw ValidationError("--workers is between 1 and 32") }
        guard writes > 0, accounts > 0, quotaCalls > 0, quotaLimit > 0, quotaWindow > 0 else {
            throw ValidationError("--writes, --accounts and the quota's figures are positive")
        }
    }

    func run() async throws {
        print("starting \(postgres == nil ? "a private PostgreSQL" : "on the given PostgreSQL") and the reference server…")
        let fleet = try await FleetRun.start(postgres: postgres)
        do {
            print("server \(fleet.serverURL.absoluteString), \(workers) worker processes\n")
            let outbox = try await fleet.outbox(workers: workers, writes: writes, accounts: accounts, disturbance: .killOneWorker)
            print("outbox: \(writes) writes for \(accounts) accounts queued, \(workers) workers deliver, one is killed (SIGKILL) and replaced")
            print("  the server applied \(outbox.applied), lost \(outbox.lost), applied twice \(outbox.duplicates), out of order \(outbox.orderViolations); \(outbox.redeliveries) repeated with their key and answered as before")
            print("  \(Int(outbox.perSecond)) writes/s across the fleet\n")
            let refresh = try await fleet.refresh(workers: workers, callsEach: 200)
            print("refresh: \(workers) processes × 200 concurrent calls meet one expired credential")
            print("  \(refresh.succeeded) of \(refresh.calls) calls succeeded; the token endpoint was called \(refresh.refreshCalls) time(s), the rotating refresh token presented \(refresh.refreshTokenUses) time(s)\n")
            let cache = try await fleet.cache(workers: workers, resources: 200)
            print("cache: \(workers) processes read the same \(cache.resources) resources through one shared cache")
            print("  the server sent \(cache.fullResponses) full responses and \(cache.revalidations) revalidations for \(cache.reads) reads\n")
            let quota = try await fleet.quota(workers: workers, calls: quotaCalls, limit: quotaLimit, window: quotaWindow)
            print("quota: \(workers) processes make \(quota.calls) calls within one shared quota of \(quota.limit) per \(quota.windowSeconds) s")
            print("  at most \(quota.maxInWindow) in any \(quota.windowSeconds)-second window at the server; at least \(quota.minUsedPerWindow) used in each of \(quota.fullWindows) full windows")
        } catch {
            await fleet.stop()
            throw error
        }
        await fleet.stop()
    }
}
