import Courier
import CourierAsyncHTTPClient
import Foundation
import RadarAPI
import RadarCore

/// One soak, from sign-in to the report, against a server that is already listening.
///
/// Until the deadline, in one task group: the workers' traffic, the fault schedule, the
/// refreshes of the watched radar, the sampler, and the WebSocket reader. Then the WebSocket
/// is closed (on every path: nothing in the group throws), the faults are cleared, the
/// network path is brought back, and ``SoakVerification`` drains the queue and counts what
/// the server holds. The caller owns the transport, the server and the folder.
///
/// The server is the reference server, in this process or another one; ``faultControls``
/// scripts it either way.
struct SoakRun {
    let plan: SoakPlan
    let faultControls: any SoakFaultControls
    /// Whether the server runs in this process (its memory is then in the RSS figures).
    let serverInProcess: Bool
    let baseURL: URL
    let transport: AsyncHTTPClientTransport
    /// Where the offline queue's database goes.
    let folder: URL

    func run() async throws -> SoakReport {
        let runID = String(UUID().uuidString.prefix(8)).lowercased()
        let tally = SoakTally()
        let session = try await SoakSession.open(baseURL: baseURL, transport: transport, folder: folder)
        let radar = session.radar
        let subjectId = try await Self.subject(radar, runID: runID)
        let live = try await SoakLive.open(
            radar: radar, session: session.clarity.session, transport: transport, baseURL: baseURL,
            name: "soak-\(runID)-live", tally: tally
        )
        let traffic = SoakTraffic(
            radar: radar, subjectId: subjectId, namePrefix: "soak-\(runID)-w", tally: tally,
            writeSlots: SoakTraffic.WriteSlots(interval: plan.writeInterval), pause: plan.pause
        )
        let faults = SoakFaults(
            controls: faultControls, network: session.network, plainReadPaths: traffic.plainReadPaths,
            period: plan.faultPeriod, outageLength: plan.outageLength, tally: tally
        )
        let sampler = SoakResourceSampler(tally: tally)
        let workers = plan.workers
        let period = plan.faultPeriod
        print("  signed in; watching radar \(live.radarId) over a WebSocket; \(workers) workers for \(String(format: "%.2f", plan.minutes)) min")

        let start = ContinuousClock.now
        let deadline = start + plan.duration
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await live.readMessages() }
            await withTaskGroup(of: Void.self) { timed in
                timed.addTask { await sampler.run(from: start, until: deadline) }
                timed.addTask { await faults.run(from: start, until: deadline) }
                timed.addTask { await live.refresh(every: period, until: deadline) }
                for index in 0..<workers {
                    timed.addTask { await traffic.worker(index, until: deadline) }
                }
            }
            await live.close()
        }
        let elapsed = (ContinuousClock.now - start).timeInterval

        session.network.comeBack()
        // Best effort: a clear that fails (a server in another process out of reach) leaves
        // faults that can only fail the verification's reads, whose error then ends the soak.
        try? await faultControls.clear()
        print("  traffic stopped; draining the offline queue and listing what the server holds")
        let verification = try await SoakVerification(
            radar: radar, queue: session.queue, namePrefix: traffic.namePrefix, drainLimit: plan.drainLimit
        ).run()
        return SoakReport(
            plan: plan,
            serverInProcess: serverInProcess,
            elapsedSeconds: elapsed,
            tally: tally.snapshot(),
            samples: sampler.all,
            verification: verification,
            webSocketReconnects: live.reconnects
        )
    }

    /// The radar the reads are about: the first of the demo account's, or one made for the run.
    private static func subject(_ radar: RadarClient, runID: String) async throws -> String {
        if let first = try await radar.list(limit: 1).items.first { return first.id }
        return try await radar.create(topic: "soak-\(runID)-subject").id
    }
}
