import Courier

/// Signs with the account's stored bearer token; the fleet origin's account tokens
/// (`FleetLedger.accountToken(for:)`) never expire, so a refresh is refused.
struct StoredBearer: Authenticator {
    func refresh(_ credential: Credential) async throws -> Credential {
        throw CourierError(code: .unauthorized, message: "not renewed")
    }
}

/// The body of a write to the fleet origin: its number and its place in its account's order.
struct FleetWrite: Encodable, Sendable {
    var write: Int
    var seq: Int
}
