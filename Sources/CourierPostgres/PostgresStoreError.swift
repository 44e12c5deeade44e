/// What went wrong with the PostgreSQL database behind Courier's shared stores, in words that
/// name it: never a password, a token or a stored body.
public struct PostgresStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: String, Sendable, Hashable {
        /// The database URL cannot be read (scheme, host, port or options).
        case invalidURL
        /// No server answers at the URL's host, port or socket.
        case unreachable
        /// The server refused the user name or password.
        case authenticationFailed
        /// The URL names a database the server does not have.
        case databaseMissing
        /// Courier's tables are not there, and the store was told not to create them.
        case schemaMissing
        /// The tables were made by a newer Courier: this one refuses to use them rather than misread them.
        case schemaTooNew
        /// A row was written by a newer Courier: it is refused rather than misread.
        case rowTooNew
        /// A stored row cannot be read (damaged, or sealed with another key).
        case unreadableRow
        /// A query failed (the server restarted, a connection broke, a constraint failed).
        case queryFailed
        /// The store was shut down.
        case shutDown
    }

    /// The kind of failure.
    public var code: Code
    /// What happened, with the part of the URL or the table it concerns (never a password).
    public var message: String
    /// The PostgreSQL SQLSTATE, when the server sent one.
    public var sqlState: String?

    /// Makes an error.
    public init(code: Code, message: String, sqlState: String? = nil) {
        self.code = code
        self.message = message
        self.sqlState = sqlState
    }

    /// The code and the message.
    public var description: String {
        "PostgresStoreError.\(code.rawValue): \(message)" + (sqlState.map { " (SQLSTATE \($0))" } ?? "")
    }
}
