import Foundation

/// Which account a stored credential belongs to, kept beside the credential file
/// (`credential.json.account`, owner-only), so that a credential the server refuses is
/// renewed for the same account and never silently for another.
struct CredentialAccount {
    /// The file that holds the account's email.
    let url: URL

    /// The record for a credential file.
    /// - Parameter credentialFile: The credential file the record sits beside.
    init(credentialFile: URL) {
        url = credentialFile.appendingPathExtension("account")
    }

    /// The recorded email, or `nil` when none is recorded (or the record cannot be read).
    func read() -> String? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        let email = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return email.isEmpty ? nil : email
    }

    /// Records the account, readable and writable by the owner only.
    /// - Parameter email: The account's email.
    func write(_ email: String) throws {
        try OwnerOnlyText.write(email, to: url)
    }

    /// Deletes the record, if there is one.
    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
