import ClarityAPI
import Courier
import CourierTesting
import Foundation
import Logging
import RadarAPI
import RadarCore
import ReferenceServer

/// The scripted session `courier demo` runs against the embedded server.
struct DemoStory {
    let server: ReferenceServer
    let baseURL: URL
    let transport: any Transport
    let report: DemoReport

    func run() async throws {
        let logs = LogRecorder()
        let logger = Logger(label: "courier.demo") { _ in RecordingLogHandler(recorder: logs, level: .debug) }
        let clarity = ClarityClient(baseURL: baseURL, transport: transport) { configuration in
            configuration.networkMiddleware = [LoggingMiddleware(logger: logger)]
        }
        let demo = ReferenceServerConfiguration()
        section("Sign in")
        let user = try await clarity.signIn(email: demo.demoEmail, password: demo.demoPassword)
        print("  signed in as \(user.email ?? user.userId) (POST /api/v1/auth/login, then GET /api/v1/auth/me); requests are signed and refreshed by an AuthSession")
        let radar = RadarClient(client: clarity.client.rebased(to: baseURL))

        let created = try await showTypedRequests(radar)
        await showTypedErrors(radar)
        try await DemoResilience(server: server, radar: radar, report: report).run()
        try await DemoLive(server: server, client: radar.client, radarId: created.id, report: report).run()
        try await DemoCaching(server: server, baseURL: baseURL, transport: transport, otherRadar: radar, report: report).run()
        try await DemoOffline(server: server, baseURL: baseURL, transport: transport, report: report).run()
        try await DemoFidelity(server: server, baseURL: baseURL, transport: transport, report: report).run()
        try await DemoCompression(baseURL: baseURL, transport: transport, report: report).run()
        try await DemoHTTP2(report: report).run()
        let token = try await server.issueTokens(email: demo.demoEmail).accessToken
        try await DemoEcosystem(server: server, baseURL: baseURL, transport: transport, token: token, report: report).run()
        showRedaction(logs, secrets: try await secrets(of: clarity))

        section("Clean up")
        try await radar.delete(id: created.id)
        print("  deleted \(created.id)")
        report.add("radar", "deleted")
        try await clarity.signOut()
        print("  signed out")
        print("\n✔ demo finished")
    }

    private func showTypedRequests(_ radar: RadarClient) async throws -> Radar {
        section("Typed requests: create, list, show, refresh")
        let created = try await radar.create(topic: "Will fusion power reach the grid by 2035?")
        print("  created \(created.id): \"\(created.topic)\" → \(created.position.rawValue), \(created.opinions.count) opinions")
        report.add("radar", "created")
        let page = try await radar.list(limit: 10)
        print("  listed \(page.items.count) of \(page.total.map(String.init) ?? "?") radars:")
        for item in page.items { print("    " + RadarFormatting.line(item)) }
        report.set("radar", "listed", page.items.count)
        let shown = try await radar.get(id: created.id)
        print("  show \(shown.id): reads as \"\(shown.interpretation.text)\"")
        report.add("radar", "shown")
        let refreshed = try await radar.refresh(id: created.id)
        print("  refresh #\(refreshed.refreshCount): \(created.opinions.count) → \(refreshed.opinions.count) opinions, position \(refreshed.position.rawValue)")
        report.add("radar", "refreshed")
        report.set("radar", "opinions_after_refresh", refreshed.opinions.count)
        return created
    }

    private func showTypedErrors(_ radar: RadarClient) async {
        section("Typed errors")
        await expectError("a radar that does not exist", code: .notFound, key: "not_found") {
            _ = try await radar.get(id: "no-such-radar")
        }
        await expectError("a topic that is too long", code: .clientError, key: "validation_failed") {
            _ = try await radar.create(topic: String(repeating: "x", count: 500))
        }
        let stranger = RadarClient(baseURL: baseURL, transport: transport, token: "forged-token")
        await expectError("a forged token", code: .unauthorized, key: "unauthorized") {
            _ = try await stranger.list()
        }
    }

    private func showRedaction(_ logs: LogRecorder, secrets: [String]) {
        section("Logging with redaction")
        if let line = logs.all.first(where: { $0.message.contains("/api/radars →") }) { print("  log: \(line.message)") }
        if let line = logs.all.first(where: { $0.message.hasPrefix("request headers") && $0.message.contains("Authorization") }) {
            print("  log: \(line.message)")
        }
        if let line = logs.all.first(where: { $0.metadata["curl"]?.contains("/auth/login") == true }) {
            print("  log: \(line.metadata["curl"] ?? "")")
        }
        let text = logs.text
        let leaks = secrets.filter { !$0.isEmpty && text.contains($0) }.count
        print("  \(logs.all.count) log lines; tokens that appear in them: \(leaks)")
        report.set("logging", "lines", logs.all.count)
        report.set("logging", "token_leaks", leaks)
    }

    private func secrets(of clarity: ClarityClient) async throws -> [String] {
        guard let credential = try await clarity.session.credential else { return [] }
        return [credential.accessToken, credential.refreshToken ?? "", ReferenceServerConfiguration().demoPassword]
    }

    private func section(_ title: String) {
        print("\n── \(title)")
    }

    private func expectError(_ what: String, code: CourierError.Code, key: String, _ body: () async throws -> Void) async {
        do {
            try await body()
            print("  ✘ \(what): unexpectedly succeeded")
            report.add("errors", "unexpected_success")
        } catch let error as CourierError {
            let status = error.status.map { "\($0.code)" } ?? "-"
            print("  \(what): .\(error.code) (status \(status)), server said \"\(error.serverMessage ?? "-")\"; show the user: \"\(error.userFacing.title)\"")
            report.add("errors", error.code == code ? key : "unexpected_\(error.code)")
        } catch {
            print("  ✘ \(what): \(error)")
            report.add("errors", "untyped")
        }
    }
}
