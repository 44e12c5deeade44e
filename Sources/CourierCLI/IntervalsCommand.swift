import ArgumentParser
import Courier
import Foundation
import IntervalsAPI
import IntervalsCore
import ReferenceServer

/// `courier intervals …`: an athlete's activities and wellness from intervals.icu, or from the
/// reference server, which speaks the same API.
struct IntervalsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "intervals",
        abstract: "Read activities and wellness from intervals.icu (or the embedded reference server).",
        discussion: """
        Without --server, the reference server is started in this process on a free loopback \
        port and its demo athlete is read with its demo API key. Its synthetic history ends on \
        2026-11-20, so without --newest the window then ends on that day instead of today.
        """,
        subcommands: [ActivitiesCommand.self, WellnessCommand.self]
    )

    /// The last day of the reference server's synthetic training history.
    static let referenceHistoryLastDay = CalendarDay(year: 2026, month: 11, day: 20)!

    /// `courier intervals activities`: one line per activity, newest first.
    struct ActivitiesCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "activities",
            abstract: "List activities, newest first: date, id, type, name, distance, moving time, load.",
            discussion: """
            The window is the 30 days ending on --newest: today by default, or 2026-11-20 (the \
            last day of its synthetic history) against the embedded reference server.
            """
        )
        @OptionGroup var server: IntervalsServerOptions
        @OptionGroup var auth: IntervalsAuthOptions
        @Option(help: ArgumentHelp("The first day (default: 29 days before the last).", valueName: "YYYY-MM-DD"))
        var oldest: String?
        @Option(help: ArgumentHelp("The last day (default: today; 2026-11-20 against the embedded server).", valueName: "YYYY-MM-DD"))
        var newest: String?
        @Option(help: "The most activities to show.") var limit: Int?
        @Option(help: "The athlete's id; 0 is the one the key or token belongs to.")
        var athlete: String = IntervalsEndpoints.currentAthlete

        func validate() throws {
            _ = try IntervalsDayWindow.day(oldest, option: "--oldest")
            _ = try IntervalsDayWindow.day(newest, option: "--newest")
            if let limit, limit < 1 { throw ValidationError("--limit must be at least 1, got \(limit)") }
            if athlete.isEmpty { throw ValidationError("--athlete is empty") }
        }

        func run() async throws {
            try await IntervalsCommand.reportingFailures {
                let window = try IntervalsDayWindow(oldest: oldest, newest: newest, days: 30, embedded: server.isEmbedded)
                let activities = try await server.withClient(auth: auth, athlete: athlete) { intervals in
                    try await intervals.activities(from: window.oldest, through: window.newest, limit: limit)
                }
                let newestFirst = activities.sorted { ($0.startDate ?? .distantPast) > ($1.startDate ?? .distantPast) }
                let shown = limit.map { Array(newestFirst.prefix($0)) } ?? newestFirst
                Console.note("\(shown.count) activities, \(window)")
                for activity in shown { print(IntervalsFormatting.line(activity)) }
            }
        }
    }

    /// `courier intervals wellness`: one line per day with a record, oldest first.
    struct WellnessCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "wellness",
            abstract: "List wellness by day: fitness (CTL), fatigue (ATL), form, resting HR, HRV, sleep, weight.",
            discussion: """
            The window is the 7 days ending on --newest: today by default, or 2026-11-20 (the \
            last day of its synthetic history) against the embedded reference server. Days \
            without a record are left out.
            """
        )
        @OptionGroup var server: IntervalsServerOptions
        @OptionGroup var auth: IntervalsAuthOptions
        @Option(help: ArgumentHelp("The first day (default: 6 days before the last).", valueName: "YYYY-MM-DD"))
        var oldest: String?
        @Option(help: ArgumentHelp("The last day (default: today; 2026-11-20 against the embedded server).", valueName: "YYYY-MM-DD"))
        var newest: String?
        @Option(help: "The athlete's id; 0 is the one the key or token belongs to.")
        var athlete: String = IntervalsEndpoints.currentAthlete

        func validate() throws {
            _ = try IntervalsDayWindow.day(oldest, option: "--oldest")
            _ = try IntervalsDayWindow.day(newest, option: "--newest")
            if athlete.isEmpty { throw ValidationError("--athlete is empty") }
        }

        func run() async throws {
            try await IntervalsCommand.reportingFailures {
                let window = try IntervalsDayWindow(oldest: oldest, newest: newest, days: 7, embedded: server.isEmbedded)
                let days = try await server.withClient(auth: auth, athlete: athlete) { intervals in
                    try await intervals.wellness.range(from: window.oldest, through: window.newest)
                }
                Console.note("\(days.count) days with a record, \(window)")
                for record in days.sorted(by: { $0.id < $1.id }) { print(IntervalsFormatting.line(record)) }
            }
        }
    }

    /// Runs `body`; a `CourierError` is written to standard error and the command exits 1.
    /// Other errors (a `ValidationError`, say) go to ArgumentParser as usual.
    static func reportingFailures(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as CourierError {
            Console.note("courier: \(error.description)")
            throw ExitCode.failure
        }
    }
}

/// Where `courier intervals …` sends its requests, and with which engine.
struct IntervalsServerOptions: ParsableArguments {
    @Option(help: "The server's base URL, such as https://intervals.icu (default: an embedded reference server on a free loopback port, with its demo athlete).")
    var server: String?

    @Flag(help: "Allow plain http:// to a host other than this machine (the API key or token then travels unencrypted).")
    var insecure = false

    @Option(help: "The engine: ahc (AsyncHTTPClient) or urlsession.")
    var transport: HTTPCallTransport = .ahc

    /// Whether the calls go to a reference server started in this process.
    var isEmbedded: Bool { server == nil }

    /// `--server`'s URL, or `nil` for the embedded reference server.
    /// - Throws: `ValidationError` for a URL that is not http(s), or plain http to a host
    ///   other than loopback without `--insecure`.
    func baseURL() throws -> URL? {
        guard let server else { return nil }
        guard let url = URL(string: server), let scheme = url.scheme, ["http", "https"].contains(scheme.lowercased()),
              let origin = Origin(url) else {
            throw ValidationError("not an http(s) URL: \(server)")
        }
        if origin.scheme == "http" && !origin.isLoopback && !insecure {
            throw ValidationError("refusing plain http to \(origin): the API key or token would travel unencrypted. Use https, or pass --insecure")
        }
        return url
    }

    /// Runs `body` with a client for `--server`, or for a reference server started for the
    /// purpose, signed as `auth` says. The transport (and the embedded server) are shut down
    /// afterwards, whether `body` succeeds or not.
    /// - Parameters:
    ///   - auth: The credential options.
    ///   - athlete: The athlete whose data is read.
    ///   - body: What to do with the client.
    func withClient<T>(auth: IntervalsAuthOptions, athlete: String, _ body: (IntervalsClient) async throws -> T) async throws -> T {
        let remote = try baseURL()
        let signing = try await auth.signing(for: remote)
        return try await AppCommandServer.run(
            remote: remote, transport: transport,
            note: { "reading the demo athlete of the embedded reference server at \($0.absoluteString) (history ends \(IntervalsCommand.referenceHistoryLastDay))" }
        ) { url, transport, _ in
            try await body(IntervalsClient(baseURL: url, transport: transport, auth: signing, athlete: athlete))
        }
    }

}

/// The days a `courier intervals` command reads: ``oldest`` through ``newest``, both included.
struct IntervalsDayWindow: CustomStringConvertible {
    /// The first day.
    let oldest: CalendarDay
    /// The last day.
    let newest: CalendarDay

    /// The window `--oldest` and `--newest` give: without `--newest`, it ends today (in this
    /// machine's time zone), or on the reference history's last day against the embedded
    /// server; without `--oldest`, it is `days` long.
    /// - Throws: `ValidationError` for a day not written `YYYY-MM-DD`, or an empty window.
    init(oldest: String?, newest: String?, days: Int, embedded: Bool) throws {
        let last = try Self.day(newest, option: "--newest") ?? (embedded ? IntervalsCommand.referenceHistoryLastDay : Self.today)
        let first = try Self.day(oldest, option: "--oldest") ?? last.adding(days: 1 - days)
        guard first <= last else { throw ValidationError("the window is empty: --oldest \(first) is after its last day, \(last)") }
        self.oldest = first
        self.newest = last
    }

    /// `2026-11-14 … 2026-11-20`.
    var description: String { "\(oldest) … \(newest)" }

    /// A day given as an option, or `nil` when the option is absent.
    /// - Throws: `ValidationError` when it is not a real day written `YYYY-MM-DD`.
    static func day(_ text: String?, option: String) throws -> CalendarDay? {
        guard let text else { return nil }
        guard let day = CalendarDay(text) else { throw ValidationError("\(option) must be a day written YYYY-MM-DD, got \"\(text)\"") }
        return day
    }

    /// Today in this machine's time zone.
    static var today: CalendarDay {
        let parts = Calendar.current.dateComponents([.year, .month, .day], from: Date())
        if let year = parts.year, let month = parts.month, let dayOfMonth = parts.day,
           let local = CalendarDay(year: year, month: month, day: dayOfMonth) {
            return local
        }
        return CalendarDay(Date())
    }
}

/// Readable lines for intervals.icu values in the terminal; an unknown value shows as `-`.
enum IntervalsFormatting {
    /// `2026-11-20  i1042  Ride         Sweet spot intervals      45.2 km  1:30:00  load 88`.
    static func line(_ activity: Activity) -> String {
        let utcDate: String? = activity.startDate.map { CalendarDay($0).description }
        let date: String = activity.startDateLocal.map { String($0.prefix(10)) } ?? utcDate ?? "-"
        let distance = activity.distance.map { String(format: "%6.1f km", $0 / 1_000) } ?? "     - km"
        let moving = activity.movingTime.map { duration($0) } ?? "-"
        let load = activity.trainingLoad.map { String($0) } ?? "-"
        let fields: [String] = [
            pad(date, 10), pad(activity.id, 8), pad(activity.type?.rawValue ?? "-", 14), pad(activity.name, 28),
            distance, pad(moving, 8), "load " + load,
        ]
        return fields.joined(separator: "  ")
    }

    /// `2026-11-20  ctl  52.3  atl  61.8  form  -9.5  rhr 49  hrv 71  sleep 7.5 h  weight 70.8 kg`.
    static func line(_ record: Wellness) -> String {
        let restingHeartRate: String = record.restingHeartRate.map { String(format: "%3ld", $0) } ?? "  -"
        let sleepHours: Double? = record.sleepSeconds.map { Double($0) / 3_600 }
        let fields: [String] = [
            record.id.description,
            "ctl " + number(record.ctl, "%5.1f"),
            "atl " + number(record.atl, "%5.1f"),
            "form " + number(record.form, "%+5.1f"),
            "rhr " + restingHeartRate,
            "hrv " + number(record.hrv, "%3.0f"),
            "sleep " + number(sleepHours, "%4.1f") + " h",
            "weight " + number(record.weight, "%5.1f") + " kg",
        ]
        return fields.joined(separator: "  ")
    }

    /// `1:30:00`: hours, minutes and seconds.
    static func duration(_ seconds: Int) -> String {
        String(format: "%ld:%02ld:%02ld", seconds / 3_600, seconds % 3_600 / 60, seconds % 60)
    }

    /// A number in `format`, or `-` right-aligned to about the same width.
    private static func number(_ value: Double?, _ format: String) -> String {
        guard let value else { return "-".leftPadded(to: String(format: format, 0.0).count) }
        return String(format: format, value)
    }

    /// `text`, padded with spaces to `width`; longer text is kept whole.
    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}

private extension String {
    /// The string with spaces before it, to `width` characters.
    func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}
