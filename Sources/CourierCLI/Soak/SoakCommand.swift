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
        abstract: "Run mixed traffic with scheduled faults against the reference server; check resources and exactly-once writes.",
        discussion: """
        Eight workers send plain reads, cached reads, keyed writes (uniquely named radars with an \
        Idempotency-Key, queued when the network is down) and small uploads, while one WebSocket \
        follows a radar's updates. A fault comes every 10 s (less in short runs), in turn: dropped \
        connections, a burst of 503s, expired access tokens, an offline period, a realtime drop. \
        RSS, open descriptors and threads are sampled each second; their slopes are fitted after \
        a warm-up. At the end the offline queue is drained and the server's radars are counted by \
        name. RSS is the whole process's: with the embedded server, the server's memory \
        included; with --server, the client's alone.
        """
    )

    @Option(help: "How long to run, in minutes; a fraction such as 0.5 works (at most 1440).")
    var minutes: Double

    @Option(help: "Also write the results as JSON, under the key soak.")
    var json: String?

    @Option(help: "Run this many seconds instead of --minutes: a quick check of the soak itself.")
    var quickSeconds: Double?

    @Option(help: "Soak against this reference server in another process (start it with `courier serve --debug-routes`; the soak signs in with its demo account and scripts faults over its /debug routes) instead of an embedded one, so that the memory and descriptor figures are the client's alone.")
    var server: String?

    func validate() throws {
        guard minutes.isFinite, minutes > 0, minutes <= SoakPlan.maximumMinutes else {
            throw ValidationError("--minutes must be a number above 0 and at most \(Int(SoakPlan.maximumMinutes)) (24 hours), got \(minutes)")
        }
        if let quickSeconds {
            guard quickSeconds.isFinite, quickSeconds > 0, quickSeconds <= SoakPlan.maximumMinutes * 60 else {
                throw ValidationError("--quick-seconds must be a number above 0 and at most \(Int(SoakPlan.maximumMinutes * 60)), got \(quickSeconds)")
            }
        }
        if let server {
            guard let url = URL(string: server), ["http", "https"].contains(url.scheme), url.host != nil else {
                throw ValidationError("--server needs an http or https URL, such as http://127.0.0.1:8080")
            }
        }
    }

    func run() async throws {
        let plan = SoakPlan(minutes: minutes, quickSeconds: quickSeconds)
        let transport = AsyncHTTPClientTransport(configuration: .init(connectionsPerHost: 16))
        let embedded = server == nil ? ReferenceServer(configuration: .embedded) : nil
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-soak-\(UUID().uuidString)")
        let report: SoakReport
        do {
            let url: URL
            let controls: any SoakFaultControls
            if let embedded {
                url = try await embedded.start()
                controls = EmbeddedSoakFaults(server: embedded)
            } else {
                url = try Self.serverURL(server)
                controls = RemoteSoakFaults(baseURL: url, transport: transport)
                try await Self.checkControls(controls, at: url)
            }
            print("soak against \(url.absoluteString)\(embedded == nil ? " (a server in another process)" : "") for \(String(format: "%.2f", plan.minutes)) min\(quickSeconds == nil ? "" : " (quick)")")
            report = try await SoakRun(
                plan: plan, faultControls: controls, serverInProcess: embedded != nil, baseURL: url, transport: transport, folder: folder
            ).run()
            try await transport.shutdown()
            await embedded?.stop()
        } catch {
            try? await transport.shutdown()
            await embedded?.stop()
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

    /// `--server`'s URL, checked by ``validate()``.
    private static func serverURL(_ server: String?) throws -> URL {
        guard let server, let url = URL(string: server) else { throw ValidationError("--server needs an http or https URL") }
        return url
    }

    /// `--server` cannot be soaked against.
    struct UnusableServer: Error, CustomStringConvertible {
        let description: String
    }

    /// Fails early, and says how to fix it, when the server does not take fault scripts: a
    /// soak without its faults would pass without testing what it claims to.
    private static func checkControls(_ controls: any SoakFaultControls, at url: URL) async throws {
        do {
            try await controls.clear()
        } catch {
            throw UnusableServer(
                description: "\(url.absoluteString) does not take fault scripts at /debug/faults and /debug/body-faults (\(error)); start it with `courier serve --debug-routes`"
            )
        }
    }
}
