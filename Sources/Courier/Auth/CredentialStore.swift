import Synchronization

/// Where a ``Credential`` is kept between launches.
///
/// Courier ships ``InMemoryCredentialStore``, ``FileCredentialStore`` (owner-only file, for
/// Linux and command-line tools) and, on Apple platforms, `KeychainCredentialStore`.
public protocol CredentialStore: Sendable {
    /// The stored credential, if any.
    func load() async throws -> Credential?
    /// Replaces the stored credential.
    /// - Parameter credential: The credential.
    func save(_ credential: Credential) async throws
    /// Removes the stored credential (logout).
    func clear() async throws
}

/// Keeps the credential in memory only: it is gone when the process ends.
///
/// A `final class` whose credential sits in a `Mutex`, which makes it `Sendable`.
public final class InMemoryCredentialStore: CredentialStore {
    private let stored: Mutex<Credential?>

    /// Makes a store.
    /// - Parameter credential: The credential to start with.
    public init(_ credential: Credential? = nil) {
        self.stored = Mutex(credential)
    }

    /// The credential, if any.
    public func load() async throws -> Credential? { stored.withLock { $0 } }

    /// Replaces the credential.
    public func save(_ credential: Credential) async throws { stored.withLock { $0 = credential } }

    /// Forgets the credential.
    public func clear() async throws { stored.withLock { $0 = nil } }
}
