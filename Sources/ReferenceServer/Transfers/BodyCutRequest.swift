/// The body of `POST /debug/body-faults`: responses to a path cut short over HTTP, as
/// ``BodyFaultInjector/dropConnection(afterBodyBytes:count:path:)`` scripts them in Swift.
///
/// ```json
/// {"path": "/api/radars", "afterBodyBytes": 16, "count": 1}
/// ```
struct BodyCutRequest: Decodable, Sendable {
    /// The exact path whose responses are cut, starting with `/`, without a query.
    var path: String
    /// How many body bytes go out before the connection closes.
    var afterBodyBytes: Int
    /// How many responses are cut; absent for 1.
    var count: Int?

    /// The path, checked as ``FaultInjectionRequest`` checks its own.
    /// - Throws: ``APIError`` 422 when it does not start with `/` or carries a query.
    func validatedPath() throws -> String {
        try FaultInjectionRequest.validatedPath(path)
    }

    /// The byte count, checked.
    /// - Throws: ``APIError`` 422 when it is negative.
    func validatedByteCount() throws -> Int {
        guard afterBodyBytes >= 0 else {
            throw APIError.validationFailed("afterBodyBytes must be 0 or more, got \(afterBodyBytes)")
        }
        return afterBodyBytes
    }

    /// The number of responses to cut, checked as ``FaultInjectionRequest`` checks its own.
    /// - Throws: ``APIError`` 422 when it is out of range.
    func validatedCount() throws -> Int {
        try FaultInjectionRequest.validatedCount(count)
    }
}
