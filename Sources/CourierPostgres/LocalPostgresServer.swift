package import Foundation
import Logging
import PostgresNIO
#if canImport(Glibc)
import Glibc
#endif

/// A private PostgreSQL server in a temporary folder, for the package's tests, `courier fleet`
/// and `courier bench --only fleet`: `initdb` and `pg_ctl` from the machine's PostgreSQL,
/// listening only on a Unix socket in that folder (no port to collide with). Run as root,
/// they run as the `postgres` user, which PostgreSQL requires.
///
/// The binaries are found, in order, in `COURIER_POSTGRES_BIN`, `pg_config --bindir`, the
/// newest of Debian's `/usr/lib/postgresql/*/bin`, and `PATH`.
///
/// `Sendable`: a `final class` whose stored properties are immutable and `Sendable`.
package final class LocalPostgresServer: Sendable {
    /// What went wrong starting or stopping the server.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// The folder holding the data directory, the socket and the log.
    package let folder: URL
    private let binaries: URL
    private let runsAsPostgresUser: Bool
    /// The server's options (socket folder, no TCP, durability), given at every start.
    private let serverOptions: String
    /// The superuser, trusted on the socket.
    package static let user = "courier"

    private init(folder: URL, binaries: URL, runsAsPostgresUser: Bool, durable: Bool) {
        self.folder = folder
        self.binaries = binaries
        self.runsAsPostgresUser = runsAsPostgresUser
        var options = "-k \(folder.path) -c listen_addresses='' -c max_connections=200"
        if !durable { options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off" }
        self.serverOptions = options
    }

    /// The URL of a database on this server.
    package func url(database: String = "postgres") -> String {
        "postgres://\(Self.user)@localhost/\(database)?host=\(folder.path)"
    }

    /// Makes a data directory and starts a server on it.
    /// - Parameter durable: Whether writes are flushed to disk (`fsync`); off for tests.
    package static func start(durable: Bool = false) async throws -> LocalPostgresServer {
        let binaries = try findBinaries()
        let folder = URL(fileURLWithPath: "/tmp").appendingPathComponent("courier-pg-" + String(UUID().uuidString.prefix(8)).lowercased())
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let asPostgres = geteuid() == 0
        if asPostgres {
            try FileManager.default.setAttributes([.ownerAccountName: "postgres", .groupOwnerAccountName: "postgres"], ofItemAtPath: folder.path)
        }
        let server = LocalPostgresServer(folder: folder, binaries: binaries, runsAsPostgresUser: asPostgres, durable: durable)
        do {
            try await server.run("initdb", ["-D", server.dataPath, "-U", user, "-A", "trust", "-E", "UTF8", "--no-sync"])
            try await server.run("pg_ctl", ["-D", server.dataPath, "-l", server.logPath, "-o", server.serverOptions, "-w", "-t", "60", "start"])
        } catch {
            try? await server.stop()
            throw error
        }
        return server
    }

    /// Stops the server at once and removes its folder.
    package func stop() async throws {
        if FileManager.default.fileExists(atPath: dataPath + "/postmaster.pid") {
            try? await run("pg_ctl", ["-D", dataPath, "-m", "immediate", "-w", "-t", "60", "stop"])
        }
        try FileManager.default.removeItem(at: folder)
    }

    /// Stops the server (fast shutdown: connections are cut), without removing anything.
    package func halt() async throws {
        try await run("pg_ctl", ["-D", dataPath, "-m", "fast", "-w", "-t", "60", "stop"])
    }

    /// Starts the server again after ``halt()``, with the options it had.
    package func resume() async throws {
        try await run("pg_ctl", ["-D", dataPath, "-l", logPath, "-o", serverOptions, "-w", "-t", "60", "start"])
    }

    /// Creates a database and returns its URL.
    package func createDatabase(_ name: String) async throws -> String {
        let url = try PostgresDatabaseURL(url())
        let logger = Logger(label: "courier.postgres.local", factory: { _ in SwiftLogNoOpLogHandler() })
        let connection = try await PostgresDatabase.openConnection(url, logger: logger)
        defer { Task { try? await connection.close() } }
        do {
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \"\(name.filter { $0.isLetter || $0.isNumber || $0 == "_" })\""), logger: logger)
        } catch {
            throw PostgresStoreError.query("creating a database", error)
        }
        return self.url(database: name)
    }

    private var dataPath: String { folder.appendingPathComponent("data").path }
    private var logPath: String { folder.appendingPathComponent("server.log").path }

    /// Runs one of the server's programs (as `postgres` when this process is root) and waits.
    ///
    /// With `posix_spawn` and `waitpid`, not Foundation's `Process`: the server `pg_ctl` starts
    /// outlives it, and `Process` does not report the end of a child whose own child lives on.
    /// (SwiftNIO and Foundation open their descriptors close-on-exec, so the server inherits
    /// none of this process's sockets.)
    private func run(_ program: String, _ arguments: [String]) async throws {
        let executable = binaries.appendingPathComponent(program).path
        let command = runsAsPostgresUser
            ? ["/usr/bin/setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--", executable] + arguments
            : [executable] + arguments
        let outputPath = folder.appendingPathComponent("\(program)-\(UUID().uuidString.prefix(8)).out").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let status = try await Self.spawnAndWait(command, output: outputPath)
        guard status == 0 else {
            let said = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            throw Failure(description: "\(program) \(arguments.last ?? "") failed (\(status)): \(said.suffix(600))")
        }
    }

    /// Starts `command` with its output in a file and waits for it on a thread of its own.
    private static func spawnAndWait(_ command: [String], output: String) async throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let arguments = command.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        var spawnedID: pid_t = 0
        let spawned = posix_spawn(&spawnedID, command[0], &actions, nil, arguments, environ)
        let pid = spawnedID
        guard spawned == 0 else {
            throw Failure(description: "\(command[0]) could not start (errno \(spawned))")
        }
        return await withCheckedContinuation { continuation in
            let waiter = Thread {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                // Exited normally: the code in the second byte; killed by a signal: 128 + it.
                continuation.resume(returning: status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F))
            }
            waiter.start()
        }
    }

    /// The folder holding `initdb` and `pg_ctl`.
    package static func findBinaries() throws -> URL {
        let fileManager = FileManager.default
        func holdsServer(_ folder: String) -> Bool {
            fileManager.isExecutableFile(atPath: folder + "/initdb") && fileManager.isExecutableFile(atPath: folder + "/pg_ctl")
        }
        if let configured = ProcessInfo.processInfo.environment["COURIER_POSTGRES_BIN"], holdsServer(configured) {
            return URL(fileURLWithPath: configured)
        }
        if let bindir = pgConfigBindir(), holdsServer(bindir) { return URL(fileURLWithPath: bindir) }
        let debian = "/usr/lib/postgresql"
        let versions = ((try? fileManager.contentsOfDirectory(atPath: debian)) ?? [])
            .compactMap { name in Double(name).map { (name, $0) } }
            .sorted { $0.1 > $1.1 }
        for (name, _) in versions where holdsServer("\(debian)/\(name)/bin") { return URL(fileURLWithPath: "\(debian)/\(name)/bin") }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) where holdsServer(folder) {
            return URL(fileURLWithPath: folder)
        }
        throw Failure(description: "PostgreSQL's server programs (initdb, pg_ctl) are not installed: install Debian's postgresql package, or set COURIER_POSTGRES_BIN")
    }

    private static func pgConfigBindir() -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pg_config", "--bindir"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
