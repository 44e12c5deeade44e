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
        let manager = FileManager.default
        try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let data = Data((email + "\n").utf8)
        if manager.fileExists(atPath: url.path) {
            try manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
            try data.write(to: url)
        } else if !manager.createFile(atPath: url.path, contents: data, attributes: [.posixPermissions: 0o600]) {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
    }

    /// Deletes the record, if there is one.
    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
