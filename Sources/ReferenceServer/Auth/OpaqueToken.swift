import Foundation

/// Random, unguessable token strings: 32 bytes from the system's secure generator, base64url without padding.
enum OpaqueToken {
    /// The random bytes behind each token.
    static let byteCount = 32

    /// A new token, 43 characters of the base64url alphabet.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
