import Courier
import Foundation

/// Which server issued a stored credential, kept beside the credential file
/// (`credential.json.origin`, owner-only), so that the CLI never sends a token to a server
/// other than the one that issued it.
struct CredentialIssuer {
    /// The file that holds the issuing server's origin.
    let url: URL

    /// The record for a credential file.
    /// - Parameter credentialFile: The credential file the record sits beside.
    init(credentialFile: URL) {
        url = credentialFile.appendingPathExtension("origin")
    }

    /// The recorded origin, such as `https://api.example.com`, or `nil` when none is recorded.
    func read() -> String? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        let origin = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return origin.isEmpty ? nil : origin
    }

    /// Records the issuing origin, readable and writable by the owner only.
    func write(_ origin: Origin) throws {
        try OwnerOnlyText.write(origin.description, to: url)
    }

    /// Deletes the record, if there is one.
    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// Checks that a credential stored in the file may be sent to `origin`.
    /// - Parameters:
    ///   - origin: The server about to receive it.
    ///   - impliedByFileName: Whether the file is the per-server default, whose name already
    ///     says which server it belongs to (a record from before origins were recorded).
    /// - Throws: `CourierError.Code.unauthorized` when another server, or an unknown
    ///   one, issued it.
    func check(for origin: Origin, impliedByFileName: Bool, credentialFile: URL) throws {
        switch read() {
        case origin.description?:
            return
        case nil where impliedByFileName:
            return
        case nil:
            throw CourierError(
                code: .unauthorized,
                message: "\(credentialFile.path) holds a credential from an unrecorded server; it is not sent to \(origin). Sign in again with `courier login --server \(origin)` and a credential file of its own"
            )
        case let issuer?:
            throw CourierError(
                code: .unauthorized,
                message: "\(credentialFile.path) holds a credential issued by \(issuer); it is never sent to \(origin). Use another --credentials file for \(origin), or `courier logout --server \(issuer)` first"
            )
        }
    }
}

/// Writes small owner-only text files (mode 0600, in a directory of mode 0700).
enum OwnerOnlyText {
    static func write(_ text: String, to url: URL) throws {
        let manager = FileManager.default
        try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let data = Data((text + "\n").utf8)
        if manager.fileExists(atPath: url.path) {
            try manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
            try data.write(to: url)
        } else if !manager.createFile(atPath: url.path, contents: data, attributes: [.posixPermissions: 0o600]) {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
    }
}
