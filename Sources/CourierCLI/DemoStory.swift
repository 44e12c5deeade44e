import Courier
import CourierTesting
import Foundation
import Logging
import RadarAPI
import RadarCore
import ReferenceServer

/// The scripted session `courier demo` runs against the embedded server.
struct DemoStory {
    let baseURL: URL
    let transport: any Transport
    let report: DemoReport

    func run() async throws {
        let token = ReferenceServerConfiguration().demoToken
        let logs = LogRecorder()
        let logger = Logger(label: "courier.demo") { _ in RecordingLogHandler(recorder: logs, level: .debug) }
        let radar = RadarClient(
            baseURL: baseURL, transport: transport, token: token,
            networkMiddleware: [LoggingMiddleware(logger: logger)]
        )

        section("Typed requests: create, list, show")
        let created = try await radar.create(topic: "Will fusion power reach the grid by 2035?")
        print("  created \(created.id): \"\(created.topic)\" → \(created.position.rawValue), \(created.opinions.count) opinions")
        report.add("radar", "created")
        let page = try await radar.list(limit: 10)
        print("  listed \(page.items.count) of \(page.total) radars:")
        for item in page.items { print("    " + RadarFormatting.line(item)) }
        report.set("radar", "listed", page.items.count)
        let shown = try await radar.get(id: created.id)
        print("  show \(shown.id): reads as \"\(shown.interpretation?.text ?? "-")\"")
        report.add("radar", "shown")

        section("Refresh: the models are polled again")
        let refreshed = try await radar.refresh(id: created.id)
        print("  refresh #\(refreshed.refreshCount): \(created.opinions.count) → \(refreshed.opinions.count) opinions, position \(refreshed.position.rawValue)")
        report.add("radar", "refreshed")
        report.set("radar", "opinions_after_refresh", refreshed.opinions.count)
        let trend = try await radar.trends(id: created.id, days: 3)
        print("  trend over \(trend.days) days: \(trend.points.map(\.total)) opinions per day")

        section("Typed errors")
        await expectError("a radar that does not exist", code: .notFound, key: "not_found") {
            _ = try await radar.get(id: "no-such-radar")
        }
        await expectError("a topic that is too long", code: .clientError, key: "validation_failed") {
            _ = try await radar.create(topic: String(repeating: "x", count: 500))
        }
        let stranger = RadarClient(baseURL: baseURL, transport: transport, token: "wrong-token")
        await expectError("a wrong token", code: .unauthorized, key: "unauthorized") {
            _ = try await stranger.list()
        }

        section("Logging with redaction")
        for entry in logs.all.prefix(3) { print("  log: \(entry.line)") }
        let leaked = logs.text.contains(token) ? 1 : 0
        print("  \(logs.all.count) log lines; the bearer token appears in \(leaked) of them (it is redacted)")
        report.set("logging", "lines", logs.all.count)
        report.set("logging", "token_leaks", leaked)

        section("Clean up")
        try await radar.delete(id: created.id)
        print("  deleted \(created.id)")
        report.add("radar", "deleted")
        print("\n✔ demo finished")
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
