/// A file-system step that ``SQLiteCacheStorage`` could not take: creating its folder or
/// database file, restricting their permissions, or moving a damaged file aside.
public struct SQLiteCacheFileError: Error, Sendable, CustomStringConvertible {
    /// What was being done, such as `create` or `chmod`.
    public var operation: String
    /// The path it was done to.
    public var path: String
    /// The `errno` the system reported.
    public var code: Int32

    /// Makes an error.
    /// - Parameters:
    ///   - operation: What was being done.
    ///   - path: The path it was done to.
    ///   - code: The `errno` the system reported.
    public init(operation: String, path: String, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// `could not OPERATION PATH: errno CODE`.
    public var description: String {
        "could not \(operation) \(path): errno \(code)"
    }
}
