import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The cache's database file and its companions (`-wal`, `-shm`, `-journal`) on disk: made
/// owner-only, opened as a GRDB pool in WAL mode, and moved aside when they are not a database.
struct CacheDatabaseFile {
    /// The database file.
    let url: URL

    private var folder: URL { url.deletingLastPathComponent() }

    /// The database file and every companion SQLite may create beside it.
    private var paths: [String] {
        [url.path, url.path + "-wal", url.path + "-shm", url.path + "-journal"]
    }

    /// Creates the folder (mode 0700, whatever the umask) if it does not exist, and the
    /// database file (mode 0600) if it does not exist.
    ///
    /// An existing folder keeps its mode: it may be shared, such as a caches directory.
    /// SQLite gives the `-wal` and `-shm` files it creates the database file's mode.
    func createIfMissing() throws {
        if !FileManager.default.fileExists(atPath: folder.path) {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Self.restrict(folder.path, to: 0o700)
        }
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
        } else if errno != EEXIST {
            throw SQLiteCacheFileError(operation: "create", path: url.path, code: errno)
        }
        try Self.restrict(url.path, to: 0o600)
    }

    /// Sets mode 0600 on the database file and each companion that exists now: a file made
    /// by an older version, another process or a surprising umask ends owner-only too.
    func restrictPermissions() throws {
        for path in paths where FileManager.default.fileExists(atPath: path) {
            try Self.restrict(path, to: 0o600)
        }
    }

    /// Opens the database as a pool in WAL mode (`synchronous = NORMAL`) and brings its
    /// schema up to date.
    /// - Throws: GRDB's `DatabaseError`, such as `SQLITE_NOTADB` for a file that is not a database.
    func openPool() throws -> DatabasePool {
        var configuration = Configuration()
        configuration.label = "CourierSQLite.cache"
        configuration.maximumReaderCount = 4
        configuration.busyMode = .timeout(5)
        let pool = try DatabasePool(path: url.path, configuration: configuration)
        do {
            try CacheSchema.migrator.migrate(pool)
        } catch {
            try? pool.close()
            throw error
        }
        return pool
    }

    /// Renames the database file and its companions to `NAME.corrupt-STAMP` (keeping each
    /// companion's suffix after it), so that a fresh database can take their place.
    /// - Parameter date: When; its seconds since 1970 make the stamp.
    /// - Returns: Where the database file went.
    @discardableResult
    func moveAside(at date: Date) throws -> URL {
        var stamp = "\(Int(date.timeIntervalSince1970))"
        var attempt = 1
        while FileManager.default.fileExists(atPath: url.path + ".corrupt-" + stamp) {
            attempt += 1
            stamp = "\(Int(date.timeIntervalSince1970))-\(attempt)"
        }
        let suffix = ".corrupt-" + stamp
        for path in paths where FileManager.default.fileExists(atPath: path) {
            guard rename(path, url.path + suffix + path.dropFirst(url.path.count)) == 0 else {
                throw SQLiteCacheFileError(operation: "rename", path: path, code: errno)
            }
        }
        return URL(fileURLWithPath: url.path + suffix)
    }

    private static func restrict(_ path: String, to mode: mode_t) throws {
        guard chmod(path, mode) == 0 else {
            throw SQLiteCacheFileError(operation: "chmod", path: path, code: errno)
        }
    }
}
