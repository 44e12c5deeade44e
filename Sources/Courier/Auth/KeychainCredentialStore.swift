#if canImport(Security)
public import Foundation
import Security

/// Keeps the credential in the Keychain as a generic password, on Apple platforms.
public struct KeychainCredentialStore: CredentialStore {
    /// The Keychain service name, such as your app's bundle identifier.
    public let service: String
    /// The Keychain account name.
    public let account: String

    /// Makes a store.
    /// - Parameters:
    ///   - service: The service name.
    ///   - account: The account name.
    public init(service: String, account: String = "courier.credential") {
        self.service = service
        self.account = account
    }

    private var query: [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service, kSecAttrAccount as String: account]
    }

    /// The stored credential, if any.
    public func load() async throws -> Credential? {
        var item: CFTypeRef?
        var search = query
        search[kSecReturnData as String] = true
        search[kSecMatchLimit as String] = kSecMatchLimitOne
        let status = SecItemCopyMatching(search as CFDictionary, &item)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = item as? Data else { throw Self.failure("read", status) }
        return try JSONDecoder().decode(Credential.self, from: data)
    }

    /// Replaces the stored credential; it is readable only after the device is first unlocked.
    public func save(_ credential: Credential) async throws {
        let data = try JSONEncoder().encode(credential)
        let update = [kSecValueData as String: data] as CFDictionary
        var status = SecItemUpdate(query as CFDictionary, update)
        if status == errSecItemNotFound {
            var add = query
            add[kSecValueData as String] = data
            add[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            status = SecItemAdd(add as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw Self.failure("save", status) }
    }

    /// Removes the stored credential.
    public func clear() async throws {
        let status = SecItemDelete(query as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw Self.failure("delete", status) }
    }

    private static func failure(_ action: String, _ status: OSStatus) -> CourierError {
        CourierError(code: .invalidRequest, message: "could not \(action) the Keychain item: OSStatus \(status)")
    }
}
#endif
