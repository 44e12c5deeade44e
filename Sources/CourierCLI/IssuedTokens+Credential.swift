package import Courier
package import Foundation
package import ReferenceServer

extension TokenResponse {
    /// Tokens the reference server issued directly (``ReferenceServer/issueTokens(email:)``, its
    /// test controls) as a Courier `Credential`, with the user's id as the account: how the demo,
    /// the bench and the tests sign a client in without a sign-in call.
    /// - Parameter issuedAt: When they were issued.
    package func credential(issuedAt: Date) -> Credential {
        Credential(
            accessToken: accessToken, refreshToken: refreshToken,
            expiresAt: issuedAt.addingTimeInterval(TimeInterval(expiresIn)), accountID: user.id, issuedAt: issuedAt
        )
    }
}
