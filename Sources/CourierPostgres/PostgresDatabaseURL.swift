import Foundation
import NIOSSL
import PostgresNIO

/// A `postgres://` URL read into a connection configuration.
///
/// Accepted: `postgres://` or `postgresql://`, `user[:password]@`, a host (or none, with a
/// `host=/socket/folder` option for a Unix socket), `:port` (5432 by default), `/database`,
/// and the options `sslmode` (`disable`, `prefer`, `require`; `prefer` by default) and `host`.
struct PostgresDatabaseURL: Sendable {
    enum TLSMode: Sendable { case disable, prefer, require }
    let host: String?
    let socketPath: String?
    let port: Int
    let user: String
    let password: String?
    let database: String?
    let tls: TLSMode
    /// The URL without its password, for messages.
    let redacted: String

    init(_ text: String) throws {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "postgres" || scheme == "postgresql" else {
            throw PostgresStoreError(code: .invalidURL, message: "a database URL starts with postgres:// or postgresql://")
        }
        var redactedComponents = components
        if redactedComponents.password != nil { redactedComponents.password = "redacted" }
        redacted = redactedComponents.string ?? "postgres://"
        let user = components.percentEncodedUser.flatMap { $0.removingPercentEncoding } ?? ""
        guard !user.isEmpty else {
            throw PostgresStoreError(code: .invalidURL, message: "the database URL \(redacted) names no user (postgres://USER@host/database)")
        }
        self.user = user
        password = components.percentEncodedPassword.flatMap { $0.removingPercentEncoding }
        let database = String(components.path.drop(while: { $0 == "/" }))
        self.database = database.isEmpty ? nil : database
        let options = Dictionary((components.queryItems ?? []).map { ($0.name.lowercased(), $0.value ?? "") }, uniquingKeysWith: { $1 })
        if let port = components.port, !(1...65_535).contains(port) {
            throw PostgresStoreError(code: .invalidURL, message: "the database URL's port \(port) is out of range")
        }
        port = components.port ?? 5432
        if let folder = options["host"], folder.hasPrefix("/") {
            socketPath = folder + "/.s.PGSQL.\(port)"
            host = nil
            tls = .disable
            return
        }
        var host = components.host ?? ""
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else {
            throw PostgresStoreError(code: .invalidURL, message: "the database URL \(redacted) names no host (postgres://user@HOST/database, or ?host=/socket/folder)")
        }
        self.host = host
        socketPath = nil
        switch options["sslmode"]?.lowercased() ?? "prefer" {
        case "disable": tls = .disable
        case "prefer", "allow": tls = .prefer
        case "require", "verify-ca", "verify-full": tls = .require
        case let other: throw PostgresStoreError(code: .invalidURL, message: "the database URL's sslmode \(other) is not one of disable, prefer, require")
        }
    }

    /// The pool's configuration.
    func clientConfiguration(maximumConnections: Int) -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if let socketPath {
            configuration = .init(unixSocketPath: socketPath, username: user, password: password, database: database)
        } else {
            let tls: PostgresClient.Configuration.TLS = switch self.tls {
            case .disable: .disable
            case .prefer: .prefer(.makeClientConfiguration())
            case .require: .require(.makeClientConfiguration())
            }
            configuration = .init(host: host ?? "localhost", port: port, username: user, password: password, database: database, tls: tls)
        }
        configuration.options.maximumConnections = maximumConnections
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }

    /// A single connection's configuration (the first check, migrations and `LISTEN`).
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        if let socketPath {
            configuration = .init(unixSocketPath: socketPath, username: user, password: password, database: database)
        } else {
            let tls: PostgresConnection.Configuration.TLS = switch self.tls {
            case .disable: .disable
            case .prefer: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
            configuration = .init(host: host ?? "localhost", port: port, username: user, password: password, database: database, tls: tls)
        }
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }
}
