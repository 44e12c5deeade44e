import ArgumentParser
import Courier
import CourierWebSocket
import Foundation

/// `courier conformance websocket`: the Autobahn fuzzing server's client protocol, with
/// Courier's WebSocket connection echoing every message.
struct WebSocketConformanceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "websocket",
        abstract: "Run the Autobahn test cases with Courier's WebSocket client.",
        discussion: """
        Asks the fuzzing server how many cases it has (/getCaseCount), runs each one \
        (/runCase?case=N&agent=NAME), echoing every text and binary message, then asks it to \
        write its reports (/updateReports?agent=NAME). The verdicts are in the server's \
        reports; scripts/autobahn.sh summarises them. permessage-deflate is offered with the \
        default settings, or with those a case's description (/getCaseInfo) asks the client \
        to offer: its no-context-takeover and window size, set through WebSocketCompression.
        """
    )

    @Option(help: "The fuzzing server, such as ws://127.0.0.1:9001.")
    var server: String

    @Option(help: "The agent name the reports are filed under.")
    var agent: String = "courier"

    @Option(help: "Run only these cases (comma-separated numbers, 1-based).")
    var cases: String?

    @Option(help: "Seconds a case may take before it is abandoned.")
    var caseTimeout: Double = 60

    func run() async throws {
        guard let base = URL(string: server), let scheme = base.scheme, ["ws", "wss"].contains(scheme.lowercased()) else {
            throw ValidationError("not a ws(s) URL: \(server)")
        }
        let session = AutobahnSession(base: base, agent: agent, caseTimeout: .milliseconds(Int64(caseTimeout * 1_000)))
        let total = try await session.caseCount()
        let selected = try selectedCases(total: total)
        print("running \(selected.count) of \(total) cases against \(base.absoluteString) as agent \(agent)")
        var echoed = 0
        var closes: [String: Int] = [:]
        var abandoned: [Int] = []
        let started = ContinuousClock.now
        for number in selected {
            let outcome = await session.runCase(number)
            echoed += outcome.echoed
            closes[outcome.closeCode, default: 0] += 1
            if outcome.timedOut { abandoned.append(number) }
            if number % 50 == 0 || number == selected.last {
                print("  case \(number)/\(total): \(echoed) messages echoed so far")
            }
        }
        try await session.updateReports()
        let seconds = (ContinuousClock.now - started).timeInterval
        print("cases run: \(selected.count), messages echoed: \(echoed), abandoned (timeout): \(abandoned.count)\(abandoned.isEmpty ? "" : " \(abandoned)"), \(String(format: "%.1f", seconds)) s")
        print("close codes seen: " + closes.sorted { $0.key < $1.key }.map { "\($0.key) × \($0.value)" }.joined(separator: ", "))
        print("reports updated for agent \(agent)")
    }

    private func selectedCases(total: Int) throws -> [Int] {
        guard let cases else { return Array(1...max(1, total)).filter { $0 <= total } }
        let numbers = cases.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !numbers.isEmpty, numbers.allSatisfy({ (1...total).contains($0) }) else {
            throw ValidationError("cases must be numbers from 1 to \(total)")
        }
        return numbers
    }
}

/// Talks to an Autobahn fuzzing server with `WebSocketConnection`.
struct AutobahnSession {
    let base: URL
    let agent: String
    let caseTimeout: Duration

    /// What happened in one case.
    struct CaseOutcome {
        var echoed = 0
        var closeCode = "-"
        var timedOut = false
    }

    func caseCount() async throws -> Int {
        let connection = open("/getCaseCount", query: nil)
        var count: Int?
        for await message in connection.messages {
            if case .text(let text) = message { count = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        guard let count else { throw ValidationError("the fuzzing server did not say how many cases it has (\(connection.state))") }
        return count
    }

    /// The case's description, from `/getCaseInfo`.
    func caseDescription(_ number: Int) async -> String {
        let connection = open("/getCaseInfo", query: "case=\(number)")
        var description = ""
        for await message in connection.messages {
            guard case .text(let text) = message, let data = text.data(using: .utf8),
                  let info = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { continue }
            description = info["description"] as? String ?? ""
        }
        return description
    }

    /// The permessage-deflate offer a case's description asks the client for: its compression
    /// cases (13.x) say "client offers (requestNoContextTakeover, requestMaxWindowBits):
    /// [(True, 9), …]", and the first of those is made with `WebSocketCompression`'s
    /// public settings, as an app would set them; every other case gets the default offer.
    static func compression(forCase description: String) -> WebSocketCompression {
        guard let range = description.range(of: "(requestNoContextTakeover, requestMaxWindowBits): [(") else { return .perMessageDeflate }
        let tuple = description[range.upperBound...].prefix { $0 != ")" }.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard tuple.count == 2, let bits = Int(tuple[1]) else { return .perMessageDeflate }
        return WebSocketCompression(maxWindowBits: bits == 0 ? nil : bits, noContextTakeover: tuple[0] == "True")
    }

    func runCase(_ number: Int) async -> CaseOutcome {
        let compression = Self.compression(forCase: await caseDescription(number))
        let connection = open("/runCase", query: "case=\(number)&agent=\(agent)", compression: compression)
        let echo = Task { () -> Int in
            var echoed = 0
            for await message in connection.messages {
                do {
                    try await connection.send(message)
                    echoed += 1
                } catch {
                    // The server closed meanwhile: nothing left to echo to.
                }
            }
            return echoed
        }
        let deadline = Task {
            try await Task.sleep(for: caseTimeout)
            await connection.close(code: .goingAway, reason: "case timeout")
        }
        var outcome = CaseOutcome()
        outcome.echoed = await echo.value
        deadline.cancel()
        if case .closed(let code, let reason) = connection.state {
            outcome.closeCode = "\(code)"
            outcome.timedOut = reason == "case timeout"
        }
        return outcome
    }

    func updateReports() async throws {
        let connection = open("/updateReports", query: "agent=\(agent)")
        for await _ in connection.messages {}
    }

    /// A connection that never reconnects, sends no pings, and accepts the suite's largest
    /// messages (16 MiB, in one frame).
    private func open(_ path: String, query: String?, compression: WebSocketCompression? = .perMessageDeflate) -> WebSocketConnection {
        var components = URLComponents(url: base, resolvingAgainstBaseURL: false)!
        components.path = path
        components.percentEncodedQuery = query
        let configuration = WebSocketConfiguration(
            url: components.url!,
            reconnect: .never,
            heartbeat: nil,
            whileDisconnected: .fail,
            incomingCapacity: 64,
            maxMessageBytes: 64 << 20,
            maxFrameBytes: 64 << 20,
            closeTimeout: .seconds(5)
        )
        var withCompression = configuration
        withCompression.compression = compression
        let connection = WebSocketConnection(configuration: withCompression)
        connection.connect()
        return connection
    }
}
