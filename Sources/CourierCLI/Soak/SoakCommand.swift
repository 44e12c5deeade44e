import ArgumentParser
import CourierAsyncHTTPClient
import Foundation
import ReferenceServer

/// `courier soak`: runs the client against the embedded reference server for a while, with
/// mixed traffic and scheduled faults, and checks that nothing leaks and every keyed write
/// is applied exactly once.
///
/// Exits non-zero when a keyed write was applied twice or lost, when an error was not a
/// `CourierError`, or when an upload came back different. See ``SoakReport`` for the figures.
struct SoakCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Run mixed traffic with scheduled faults against the embedded server; check resources and exactly-once writes.",
        discussion: """
        Eight workers send plain reads, cached reads, keyed writes (uniquely named radars with an \
        Idempotency-Key, queued when the network is down) and small uploads, while one WebSocket \
        follows a radar's updates. A fault comes every 10 s (less in short runs), in turn: dropped \
        connections, a burst of 503s, expired access tokens, an offline period, a realtime drop. \
        RSS, open descriptors and threads are sampled each second; their slopes are fitted after \
        a warm-up. At the end the offline queue is drained and the server's radars are counted by \
        name. RSS is the whole process's, the in-process server included.
        """
    )

    @Option(help: "How long to run, in minutes; a fraction such as 0.5 works (at most 1440).")
    var minutes: Double

    @Option(help: "Also write the results as JSON, under the key soak.")
    var json: String?

    @Option(help: "Run this many seconds instead of --minutes: a quick check of the soak itself.")
    var quickSeconds: Double?

    func validate() throws {
        guard minutes.isFinite, minutes > 0, minutes <= SoakPlan.maximumMinutes else {
            throw ValidationError("--minutes must be a number above 0 and at most \(Int(SoakPlan.maximumMinutes)) (24 hours), got \(minutes)")
        }
        if let quickSeconds {
            guard quickSeconds.isFinite, quickSeconds > 0, quickSeconds <= SoakPlan.maximumMinutes * 60 else {
                throw ValidationError("--quick-seconds must be a number above 0 and at most \(Int(SoakPlan.maximumMinutes * 60)), got \(quickSeconds)")
            }
        }
    }

    func run() async throws {
        let plan = SoakPlan(minutes: minutes, quickSeconds: quickSeconds)
        let server = ReferenceServer(configuration: .embedded)
        let url = try await server.start()
        let transport = AsyncHTTPClientTransport(configuration: .init(connectionsPerHost: 16))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-soak-\(UUID().uuidString)")
        print("soak against \(url.absoluteString) for \(String(format: "%.2f", plan.minutes)) min\(quickSeconds == nil ? "" : " (quick)")")
        let report: SoakReport
        do {
            report = try await SoakRun(plan: plan, server: server, baseURL: url, transport: transport, folder: folder).run()
            try await transport.shutdown()
            await server.stop()
        } catch {
            try? await transport.shutdown()
            await server.stop()
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        try? FileManager.default.removeItem(at: folder)
        report.printSummary()
        if let json {
            try report.write(to: URL(fileURLWithPath: json))
            print("results written to \(json)")
        }
        if report.failed { throw ExitCode.failure }
    }
}
