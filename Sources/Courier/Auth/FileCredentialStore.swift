public import Foundation

/// Keeps the credential in a JSON file readable by its owner only, for Linux and tools.
///
/// The folder is created with mode 0700 and the file with mode 0600. Writes go to a
/// temporary file in the same folder, created with mode 0600 before any byte is written,
/// synced, then renamed over the old file, so a crash leaves the old file or the new one,
/// never half of one and never a moment readable by others.
public struct FileCredentialStore: CredentialStore {
    /// The file.
    public let url: URL

    /// Makes a store.
    /// - Parameter url: The file, such as `~/.config/courier/credential.json`.
    public init(url: URL) {
        self.url = url
    }

    /// The credential in the file, or `nil` when there is no file.
    /// - Throws: ``CourierError/Code/invalidResponse`` if the file is not a credential.
    public func load() async throws -> Credential? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        do {
            return try JSONDecoder().decode(Credential.self, from: data)
        } catch {
            throw CourierError(code: .invalidResponse, message: "the credential file \(url.path) is not valid", underlying: error)
        }
    }

    /// Writes the credential atomically with owner-only permissions.
    public func save(_ credential: Credential) async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try OwnerOnlyFile.save(try encoder.encode(credential), to: url)
    }

    /// Deletes the file.
    public func clear() async throws {
        if FileManager.default.fileExists(atPath: url.path) {
            try FileManager.default.removeItem(at: url)
        }
    }
}
