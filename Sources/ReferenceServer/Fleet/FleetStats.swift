/// The counts of a ``FleetLedger``, as `GET /fleet/stats` answers them (snake_case keys).
public struct FleetStats: Sendable, Codable, Hashable {
    /// Writes applied (first delivery of an idempotency key).
    public var applied: Int
    /// Deliveries whose idempotency key had been seen already, not applied again.
    public var redeliveries: Int
    /// Applied writes whose write id had been applied before under another key.
    public var duplicates: Int
    /// Applied writes whose seq was lower than their account's last applied seq.
    public var orderViolations: Int
    /// Calls to the quota route.
    public var quotaCalls: Int
    /// The most quota calls in any window-long interval.
    public var maxInWindow: Int
    /// The fewest quota calls in a full aligned window; 0 when no window is full.
    public var minUsedPerWindow: Int
    /// How many aligned windows are full.
    public var fullWindows: Int
    /// Refreshes that rotated the shared credential.
    public var refreshCalls: Int
    /// How many times the refresh token installed by setup was presented, rotated or not.
    public var refreshTokenUses: Int
    /// Protected calls accepted.
    public var protectedOK: Int
    /// Protected calls rejected with 401.
    public var protectedRejected: Int
    /// Resources answered in full.
    public var fullResponses: Int
    /// Resources answered 304.
    public var revalidations: Int

    /// The JSON keys, in snake_case.
    enum CodingKeys: String, CodingKey {
        case applied, redeliveries, duplicates
        case orderViolations = "order_violations"
        case quotaCalls = "quota_calls"
        case maxInWindow = "max_in_window"
        case minUsedPerWindow = "min_used_per_window"
        case fullWindows = "full_windows"
        case refreshCalls = "refresh_calls"
        case refreshTokenUses = "refresh_token_uses"
        case protectedOK = "protected_ok"
        case protectedRejected = "protected_rejected"
        case fullResponses = "full_responses"
        case revalidations
    }
}
