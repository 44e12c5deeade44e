import ArgumentParser
import ClarityAPI
import ClarityOpenAPI
import Courier
import Foundation
import ReferenceServer

/// `courier clarity …`: CLARITY's backend from a terminal: sign-in, health data and insights,
/// or the same from the reference server, which speaks the backend's published contract.
struct ClarityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clarity",
        abstract: "Sign in to CLARITY's backend (or the embedded reference server) and read or upload health data and insights.",
        discussion: """
        With --server, `courier clarity login` signs in and keeps the credential (mode 0600); the \
        other commands use it. Without --server, each command starts the reference server in \
        this process on a free loopback port and signs in as its demo account; that server \
        starts with no health data or insights and forgets what it was sent when the command ends.
        """,
        subcommands: [LoginCommand.self, MeCommand.self, HealthDataCommand.self, UploadCommand.self, InsightsCommand.self]
    )

    /// `courier clarity login`: signs in and keeps the credential; prints the user.
    struct LoginCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "login",
            abstract: "Sign in and keep the credential; print the signed-in user's email and id.",
            discussion: "The password is never printed. Against the embedded server nothing is kept: the server stops with the command."
        )
        @OptionGroup var server: ClarityServerOptions
        @Option(help: "The account's email (default: the reference server's demo account).")
        var email: String?
        @Option(help: "Its password (default: the COURIER_PASSWORD environment variable with --server; the demo account's own password for the demo account).")
        var password: String?

        func validate() throws {
            _ = try account()
        }

        func run() async throws {
            try await IntervalsCommand.reportingFailures {
                let signIn = try account()
                let (user, target): (ClarityUserInfo, ClarityTarget) = try await server.withClient(signsInItself: true) { clarity, target in
                    let user = try await clarity.signIn(email: signIn.email, password: signIn.password)
                    if let file = target.credentialFile {
                        try CredentialAccount(credentialFile: file).write(signIn.email)
                        try CredentialIssuer(credentialFile: file).write(target.origin)
                    }
                    return (user, target)
                }
                print("signed in as \(ClarityFormatting.user(user))")
                if let file = target.credentialFile {
                    print("credential kept in \(file.path) (mode 0600), for \(target.origin) only")
                } else {
                    Console.note("the credential was not kept: the embedded reference server stops with this command")
                }
            }
        }

        /// The account to sign in as and its password: `--email`, else the demo account;
        /// `--password`, else (with `--server`) `COURIER_PASSWORD`, else the demo account's.
        /// - Throws: `ValidationError` for an empty option, or another account without a password.
        func account() throws -> (email: String, password: String) {
            let demo = ReferenceServerConfiguration()
            let email = self.email ?? demo.demoEmail
            guard !email.isEmpty else { throw ValidationError("--email is empty") }
            if let password {
                guard !password.isEmpty else { throw ValidationError("--password is empty") }
                return (email, password)
            }
            if !server.isEmbedded, let variable = ProcessInfo.processInfo.environment["COURIER_PASSWORD"], !variable.isEmpty {
                return (email, variable)
            }
            guard email == demo.demoEmail else {
                throw ValidationError("\(email) needs its password: pass --password" + (server.isEmbedded ? "" : " or set COURIER_PASSWORD"))
            }
            return (email, demo.demoPassword)
        }
    }

    /// `courier clarity me`: the signed-in user.
    struct MeCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "me", abstract: "Show the signed-in user (GET /api/v1/auth/me).")
        @OptionGroup var server: ClarityServerOptions

        func run() async throws {
            try await IntervalsCommand.reportingFailures {
                let user = try await server.withClient { clarity, _ in try await clarity.currentUser() }
                print(ClarityFormatting.user(user))
            }
        }
    }

    /// `courier clarity health-data`: one line per record.
    struct HealthDataCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "health-data",
            abstract: "List health data records: created at, metric type, metric id, heart rate and steps where present.",
            discussion: "Records come in the server's order (the reference server's: oldest first). Without --all, only the first page is read."
        )
        @OptionGroup var server: ClarityServerOptions
        @Option(help: "Records per page.") var limit: Int = 50
        @Option(help: ArgumentHelp("Only records of this metric type, such as heart_rate.", valueName: "metric_type"))
        var type: String?
        @Flag(help: "Read every page, following the cursors.") var all = false

        func validate() throws {
            if limit < 1 { throw ValidationError("--limit must be at least 1, got \(limit)") }
            if let type, type.isEmpty { throw ValidationError("--type is empty") }
        }

        func run() async throws {
            try await IntervalsCommand.reportingFailures {
                let kind = type.map(HealthMetricKind.init(rawValue:))
                let (count, more): (Int, Bool) = try await server.withClient { clarity, _ in
                    guard all else {
                        let page = try await clarity.healthData(limit: limit, type: kind)
                        for record in page.items { print(ClarityFormatting.line(record)) }
                        return (page.items.count, page.pagination.hasNext)
                    }
                    var total = 0
                    for try await page in clarity.healthData(pageSize: limit, type: kind) {
                        for record in page.items { print(ClarityFormatting.line(record)) }
                        total += page.items.count
                    }
                    return (total, false)
                }
                Console.note("\(count) records" + (more ? "; there are more: pass --all to read every page" : ""))
            }
        }
    }

    /// `courier clarity upload`: submits health data with an idempotency key.
    struct UploadCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "upload",
            abstract: "Submit health data (a HealthDataUpload document, or one heart rate) and print the processing id and status.",
            discussion: "A repeat with the same --idempotency-key is stored once. A document's user_id must be the signed-in user's (`courier clarity me` shows it)."
        )
        @OptionGroup var server: ClarityServerOptions
        @Option(help: ArgumentHelp("A JSON HealthDataUpload document, submitted as it is.", valueName: "file"))
        var file: String?
        @Option(help: ArgumentHelp("Submit one heart_rate metric for the signed-in user instead.", valueName: "bpm"))
        var heartRate: Double?
        @Option(help: ArgumentHelp("The write's idempotency key (default: a new UUID, printed).", valueName: "key"))
        var idempotencyKey: String?

        func validate() throws {
            if (file == nil) == (heartRate == nil) { throw ValidationError("pass either --file or --heart-rate") }
            if let heartRate, !(heartRate.isFinite && heartRate > 0) { throw ValidationError("--heart-rate must be a positive number of beats per minute, got \(heartRate)") }
            if let idempotencyKey, idempotencyKey.isEmpty { throw ValidationError("--idempotency-key is empty") }
        }

        func run() async throws {
            try await IntervalsCommand.reportingFailures {
                // Read before any server starts or any request goes out.
                let document = try file.map { try ClarityUploadFile.read($0) }
                let key = idempotencyKey ?? UUID().uuidString
                let answer: HealthDataResponse = try await server.withClient { clarity, _ in
                    let upload: HealthDataUpload
                    if let document {
                        upload = document
                    } else if let heartRate {
                        let user = try await clarity.currentUser()
                        let metric = HealthMetric(biometricData: .init(heartRate: heartRate), metricType: HealthMetricKind.heartRate.rawValue)
                        upload = HealthDataUpload(clientTimestamp: Date(), metrics: [metric], uploadSource: "manual", userId: user.userId)
                    } else {
                        throw ValidationError("pass either --file or --heart-rate")
                    }
                    Console.note("submitting \(upload.metrics.count) metrics with idempotency key \(key)")
                    return try await clarity.submitHealthData(upload, idempotencyKey: key)
                }
                let rejected = answer.rejectedMetrics.map { ", \($0) rejected" } ?? ""
                print("processing id \(answer.processingId ?? "-")  status \(answer.status)  (\(answer.acceptedMetrics) accepted\(rejected))")
                for problem in answer.validationErrors ?? [] { Console.note("rejected: \(problem.msg)") }
            }
        }
    }

    /// `courier clarity insights`: the insight history, newest first, and the service's status.
    struct InsightsCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "insights",
            abstract: "List the signed-in user's insights, newest first (generated at, id, narrative), and the insights service's status."
        )
        @OptionGroup var server: ClarityServerOptions
        @Option(help: "The most insights to show.") var limit: Int = 10

        func validate() throws {
            if limit < 1 { throw ValidationError("--limit must be at least 1, got \(limit)") }
        }

        func run() async throws {
            try await IntervalsCommand.reportingFailures {
                let (history, status): (ClarityInsightHistory, ClarityServiceStatus) = try await server.withClient { clarity, _ in
                    let user = try await clarity.currentUser()
                    let history = try await clarity.insightHistory(userId: user.userId, limit: limit)
                    let status = try await clarity.insightsStatus()
                    return (history, status)
                }
                let shown = ClarityFormatting.newestFirst(history.insights)
                Console.note("\(shown.count) insights" + (history.totalCount.map { " of \($0)" } ?? ""))
                for entry in shown { print(ClarityFormatting.line(entry)) }
                print(ClarityFormatting.line(status))
            }
        }
    }
}

/// Readable lines for CLARITY values in the terminal; an unknown value shows as `-`.
enum ClarityFormatting {
    /// `demo@courier.dev (user id u_1, email verified: true, name Demo)`.
    static func user(_ user: ClarityUserInfo) -> String {
        var details = ["user id \(user.userId)", "email verified: \(user.emailVerified)"]
        if let name = user.displayName, !name.isEmpty { details.append("name \(name)") }
        return "\(user.email ?? "(no email)") (\(details.joined(separator: ", ")))"
    }

    /// `2026-11-20T08:30:00Z  heart_rate        m_12        hr 72 bpm  steps 8400`.
    static func line(_ record: ClarityHealthRecord) -> String {
        var values: [String] = []
        if let heartRate = record.biometricData?.heartRate { values.append(String(format: "hr %g bpm", heartRate)) }
        if let steps = record.activityData?.steps { values.append("steps \(steps)") }
        let created = record.createdAt.flatMap { try? ClarityDateTranscoder().encode($0) } ?? "-"
        let id = record.metricId ?? "-"
        let fields = [pad(created, 20), pad(record.kind?.rawValue ?? "-", 16), values.isEmpty ? id : pad(id, 10)] + values
        return fields.joined(separator: "  ")
    }

    /// `2026-11-20T08:30:00Z  ins_3       Your resting heart rate …`, on one line.
    static func line(_ entry: ClarityInsightHistory.Entry) -> String {
        let narrative = (entry.narrative ?? "-").split(whereSeparator: \.isNewline).joined(separator: " ")
        return [pad(entry.generatedAt ?? "-", 20), pad(entry.id ?? "-", 10), narrative].joined(separator: "  ")
    }

    /// `insights service: healthy  model template-narrative-1 (synthetic)  at 2026-11-20T08:30:00Z`.
    static func line(_ status: ClarityServiceStatus) -> String {
        var fields = ["\(status.service ?? "insights") service: \(status.status ?? "-")"]
        if let model = status.model { fields.append("model \(model)") }
        if let timestamp = status.timestamp { fields.append("at \(timestamp)") }
        return fields.joined(separator: "  ")
    }

    /// The insights, newest first by `generated_at`; those without a readable date come last,
    /// and ties keep the server's order.
    static func newestFirst(_ entries: [ClarityInsightHistory.Entry]) -> [ClarityInsightHistory.Entry] {
        let transcoder = ClarityDateTranscoder()
        let dated: [(index: Int, date: Date?, entry: ClarityInsightHistory.Entry)] = entries.enumerated().map { index, entry in
            (index: index, date: entry.generatedAt.flatMap { text in try? transcoder.decode(text) }, entry: entry)
        }
        return dated.sorted { first, second in
            switch (first.date, second.date) {
            case let (newer?, older?) where newer != older: return newer > older
            case (.some, .none): return true
            case (.none, .some): return false
            default: return first.index < second.index
            }
        }.map { $0.entry }
    }

    /// `text`, padded with spaces to `width`; longer text is kept whole.
    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
