import Foundation

/// `courier bench --only fleet`: the fleet's figures, as the server saw them (see
/// `FleetRun`). Writes the `fleet.*` keys.
struct FleetBenchmark {
    let postgres: String?
    let quick: Bool

    func run(into results: inout BenchResults) async throws {
        print("\nfleet (PostgreSQL-shared outbox, quota, credential and cache; several processes)")
        let fleet = try await FleetRun.start(postgres: postgres)
        do {
            try await measure(fleet, into: &results)
        } catch {
            await fleet.stop()
            throw error
        }
        await fleet.stop()
    }

    private func measure(_ fleet: FleetRun, into results: inout BenchResults) async throws {
        let writes = quick ? 2_000 : 10_000
        let outbox = try await fleet.outbox(workers: 4, writes: writes, accounts: 50, disturbance: .killOneWorker)
        let single = try await fleet.outbox(workers: 1, writes: writes / 5, accounts: 50, disturbance: .none)
        for (key, value) in [
            ("workers", outbox.workers), ("writes", outbox.writes), ("applied", outbox.applied), ("duplicates", outbox.duplicates),
            ("lost", outbox.lost), ("order_violations", outbox.orderViolations), ("redeliveries", outbox.redeliveries), ("killed", outbox.killed),
        ] { results.set("fleet.outbox.\(key)", value) }
        results.set("fleet.outbox.per_second", outbox.perSecond.rounded())
        results.set("fleet.outbox.per_second_one_worker", single.perSecond.rounded())
        print("  outbox: \(outbox.applied)/\(writes) applied by 4 workers (one killed and replaced), lost \(outbox.lost), twice \(outbox.duplicates), out of order \(outbox.orderViolations); \(Int(outbox.perSecond))/s, one worker \(Int(single.perSecond))/s")

        let refresh = try await fleet.refresh(workers: 4, callsEach: 200)
        results.set("fleet.refresh.calls", refresh.calls)
        results.set("fleet.refresh.succeeded", refresh.succeeded)
        results.set("fleet.refresh.refresh_calls", refresh.refreshCalls)
        results.set("fleet.refresh.refresh_token_uses", refresh.refreshTokenUses)
        print("  refresh: \(refresh.succeeded)/\(refresh.calls) calls succeeded, \(refresh.refreshCalls) refresh(es), refresh token used \(refresh.refreshTokenUses) time(s)")

        let cache = try await fleet.cache(workers: 4, resources: 200)
        results.set("fleet.cache.reads", cache.reads)
        results.set("fleet.cache.full_responses", cache.fullResponses)
        results.set("fleet.cache.revalidations", cache.revalidations)
        print("  cache: \(cache.reads) reads of 200 resources, \(cache.fullResponses) full responses, \(cache.revalidations) revalidations")

        if fleet.local != nil {
            let faults = try await fleet.outbox(workers: 3, writes: quick ? 1_000 : 3_000, accounts: 30, disturbance: .restartDatabase)
            results.set("fleet.faults.writes", faults.writes)
            results.set("fleet.faults.applied", faults.applied)
            results.set("fleet.faults.lost", faults.lost)
            results.set("fleet.faults.duplicates", faults.duplicates)
            results.set("fleet.faults.order_violations", faults.orderViolations)
            results.set("fleet.faults.recovered_processes", faults.recoveredProcesses)
            results.set("fleet.faults.processes", faults.workers)
            results.set("fleet.faults.outage_calls", faults.outageCalls)
            results.set("fleet.faults.outage_failed_typed", faults.outageFailedTyped)
            print("  faults: PostgreSQL restarted mid-run: \(faults.applied)/\(faults.writes) applied, lost \(faults.lost), twice \(faults.duplicates); \(faults.recoveredProcesses)/\(faults.workers) processes delivered again without a restart; \(faults.outageFailedTyped)/\(faults.outageCalls) calls during the outage failed typed")
        } else {
            print("  faults: skipped (--postgres names a server this run cannot restart)")
        }

        let quota = try await fleet.quota(workers: 4, calls: quick ? 300 : 1_000, limit: 100, window: 15)
        results.set("fleet.quota.calls", quota.calls)
        results.set("fleet.quota.succeeded", quota.succeeded)
        results.set("fleet.quota.max_in_window", quota.maxInWindow)
        results.set("fleet.quota.min_used_per_window", quota.minUsedPerWindow)
        results.set("fleet.quota.full_windows", quota.fullWindows)
        print("  quota: \(quota.calls) calls, at most \(quota.maxInWindow) in any 15 s window, at least \(quota.minUsedPerWindow) in each of \(quota.fullWindows) full windows")
    }
}
