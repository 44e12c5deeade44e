/// The body of `POST /debug/faults`: one fault, scripted over HTTP.
///
/// ```json
/// {"path": "/api/radars", "method": "GET", "count": 3, "fault": "status", "status": 503}
/// {"path": "/api/radars", "fault": "rateLimited", "retryAfter": "2"}
/// {"path": "/api/radars", "fault": "delay", "delayMs": 500}
/// {"path": "/api/radars", "fault": "dropConnection"}
/// ```
struct FaultInjectionRequest: Decodable, Sendable {
    /// The longest delay that can be scripted over HTTP, in milliseconds.
    static let maximumDelayMilliseconds = 30_000
    /// The most requests one injection can cover.
    static let maximumCount = 10_000

    /// The exact path the fault applies to, starting with `/`.
    var path: String
    /// The method it is limited to; absent for every method.
    var method: String?
    /// How many requests get the fault; absent for 1.
    var count: Int?
    /// `status`, `rateLimited`, `delay` or `dropConnection`.
    var fault: String
    /// The status of a `status` fault.
    var status: Int?
    /// The `Retry-After` value of a `rateLimited` fault, a string or a number of seconds.
    var retryAfter: String?
    /// The wait of a `delay` fault, in milliseconds.
    var delayMs: Int?

    private enum CodingKeys: String, CodingKey {
        case path, method, count, fault, status, retryAfter, delayMs
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = try container.decode(String.self, forKey: .path)
        method = try container.decodeIfPresent(String.self, forKey: .method)
        count = try container.decodeIfPresent(Int.self, forKey: .count)
        fault = try container.decode(String.self, forKey: .fault)
        status = try container.decodeIfPresent(Int.self, forKey: .status)
        delayMs = try container.decodeIfPresent(Int.self, forKey: .delayMs)
        if let seconds = try? container.decodeIfPresent(Int.self, forKey: .retryAfter) {
            retryAfter = String(seconds)
        } else {
            retryAfter = try container.decodeIfPresent(String.self, forKey: .retryAfter)
        }
    }

    /// The number of requests to fault, checked.
    /// - Throws: ``APIError`` 422 when it is out of range.
    func validatedCount() throws -> Int {
        try Self.validatedCount(count)
    }

    /// The path, checked.
    /// - Throws: ``APIError`` 422 when it does not start with `/` or carries a query.
    func validatedPath() throws -> String {
        try Self.validatedPath(path)
    }

    /// A scripted request count (absent for 1), checked; for every fault script over HTTP.
    /// - Throws: ``APIError`` 422 when it is out of range.
    static func validatedCount(_ count: Int?) throws -> Int {
        let count = count ?? 1
        guard (1...maximumCount).contains(count) else {
            throw APIError.validationFailed("count must be between 1 and \(maximumCount), got \(count)")
        }
        return count
    }

    /// A scripted path, checked; for every fault script over HTTP.
    /// - Throws: ``APIError`` 422 when it does not start with `/` or carries a query.
    static func validatedPath(_ path: String) throws -> String {
        guard path.hasPrefix("/"), !path.contains("?") else {
            throw APIError.validationFailed("path must start with / and carry no query, got \"\(path)\"")
        }
        return path
    }

    /// The fault described.
    /// - Throws: ``APIError`` 422 when the kind is unknown or its parameter is missing or out of range.
    func validatedFault() throws -> Fault {
        switch fault {
        case "status":
            guard let status, (200...599).contains(status) else {
                throw APIError.validationFailed("a status fault needs \"status\" from 200 to 599")
            }
            return .status(status)
        case "rateLimited":
            guard let retryAfter, !retryAfter.isEmpty else {
                throw APIError.validationFailed("a rateLimited fault needs \"retryAfter\"")
            }
            return .rateLimited(retryAfter: retryAfter)
        case "delay":
            guard let delayMs, (0...Self.maximumDelayMilliseconds).contains(delayMs) else {
                throw APIError.validationFailed(
                    "a delay fault needs \"delayMs\" from 0 to \(Self.maximumDelayMilliseconds)"
                )
            }
            return .delay(.milliseconds(delayMs))
        case "dropConnection":
            return .dropConnection
        case "refuseStream":
            return .refuseStream
        default:
            throw APIError.validationFailed(
                "fault must be status, rateLimited, delay, dropConnection or refuseStream, got \"\(fault)\""
            )
        }
    }
}
