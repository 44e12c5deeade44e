public import ClarityCore
public import Courier
public import Foundation

extension TokenResponse {
    /// The token pair as a Courier `Credential`, expiring `expiresIn` seconds after `issuedAt`.
    /// - Parameter issuedAt: When the response was received.
    public func credential(issuedAt: Date) -> Credential {
        Credential(
            accessToken: accessToken,
            refreshToken: refreshToken,
            expiresAt: issuedAt.addingTimeInterval(TimeInterval(expiresIn)),
            accountID: user.id,
            issuedAt: issuedAt
        )
    }
}
