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

    /// The path, checked.
    /// - Throws: ``APIError`` 422 when it does not start with `/` or carries a query.
    func validatedPath() throws -> String {
        guard path.hasPrefix("/"), !path.contains("?") else {
            throw APIError.validationFailed("path must start with / and carry no query, got \"\(path)\"")
        }
        return path
    }

    /// The byte count, checked.
    /// - Throws: ``APIError`` 422 when it is negative.
    func validatedByteCount() throws -> Int {
        guard afterBodyBytes >= 0 else {
            throw APIError.validationFailed("afterBodyBytes must be 0 or more, got \(afterBodyBytes)")
        }
        return afterBodyBytes
    }

    /// The number of responses to cut, checked.
    /// - Throws: ``APIError`` 422 when it is out of range.
    func validatedCount() throws -> Int {
        let count = count ?? 1
        guard (1...FaultInjectionRequest.maximumCount).contains(count) else {
            throw APIError.validationFailed("count must be between 1 and \(FaultInjectionRequest.maximumCount), got \(count)")
        }
        return count
    }
}
