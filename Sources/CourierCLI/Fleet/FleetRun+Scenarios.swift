import Courier
import CourierPostgres
import Foundation
import ReferenceServer

/// The quota, refresh and cache runs of a fleet.
extension FleetRun {
    struct QuotaFigures {
        var workers = 0, calls = 0, succeeded = 0, maxInWindow = 0, minUsedPerWindow = 0, fullWindows = 0
        var limit = 0, windowSeconds = 0
    }

    /// `workers` processes make `calls` calls in all, within one shared window of `limit` per `window` seconds.
    func quota(workers: Int, calls: Int, limit: Int, window: Int) async throws -> QuotaFigures {
        await server.fleet.reset()
        await server.fleet.setup(accessToken: "unused", refreshToken: "unused", quotaWindowSeconds: Double(window))
        let store = "quota-\(runID)-\(limit)-\(window)"
        let processes = try (0..<workers).map { index in
            try worker("quota", index: index, store: store, [
                "--calls", "\(calls / workers + (index < calls % workers ? 1 : 0))", "--concurrency", "25",
                "--quota-limit", "\(limit)", "--quota-window", "\(window)",
            ])
        }
        for process in processes { _ = await process.exit() }
        let stats = await server.fleet.stats()
        return QuotaFigures(
            workers: workers, calls: stats.quotaCalls, succeeded: processes.map { Self.okAndFailed($0).ok }.reduce(0, +),
            maxInWindow: stats.maxInWindow, minUsedPerWindow: stats.minUsedPerWindow, fullWindows: stats.fullWindows,
            limit: limit, windowSeconds: window
        )
    }

    struct RefreshFigures {
        var workers = 0, calls = 0, succeeded = 0, refreshCalls = 0, refreshTokenUses = 0
    }

    /// `workers` processes × `callsEach` concurrent calls meet one expired, shared credential.
    func refresh(workers: Int, callsEach: Int) async throws -> RefreshFigures {
        await server.fleet.reset()
        await server.fleet.setup(accessToken: "fleet-access-0", refreshToken: "fleet-refresh-0", quotaWindowSeconds: 15)
        let account = Self.sharedAccount + "-" + runID
        try await PostgresCredentialStore(database: database, account: account).save(Credential(
            accessToken: "fleet-expired-access", refreshToken: "fleet-refresh-0",
            expiresAt: Date(timeIntervalSinceNow: -60), accountID: account
        ))
        let processes = try (0..<workers).map { index in
            try worker("refresh", index: index, store: account, ["--calls", "\(callsEach)"])
        }
        for process in processes { _ = await process.exit() }
        let stats = await server.fleet.stats()
        return RefreshFigures(
            workers: workers, calls: workers * callsEach, succeeded: processes.map { Self.okAndFailed($0).ok }.reduce(0, +),
            refreshCalls: stats.refreshCalls, refreshTokenUses: stats.refreshTokenUses
        )
    }

    struct CacheFigures {
        var workers = 0, reads = 0, succeeded = 0, resources = 0, fullResponses = 0, revalidations = 0
    }

    /// `workers` processes each read the same `resources` resources through one shared cache.
    func cache(workers: Int, resources: Int) async throws -> CacheFigures {
        await server.fleet.reset()
        let store = "cache-\(runID)-\(resources)"
        let processes = try (0..<workers).map { index in
            try worker("cache", index: index, store: store, ["--calls", "\(resources)"])
        }
        for process in processes { _ = await process.exit() }
        let stats = await server.fleet.stats()
        return CacheFigures(
            workers: workers, reads: workers * resources, succeeded: processes.map { Self.okAndFailed($0).ok }.reduce(0, +),
            resources: resources, fullResponses: stats.fullResponses, revalidations: stats.revalidations
        )
    }
}
