import Courier
import Foundation
import Testing

@Suite("Credential storage")
struct CredentialStoreTests {
    private func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("courier-tests-\(UUID().uuidString)")
            .appendingPathComponent("nested/credential.json")
    }

    @Test func theFileStoreRoundTripsWithOwnerOnlyPermissions() async throws {
        let url = temporaryFile()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent().deletingLastPathComponent()) }
        let store = FileCredentialStore(url: url)
        #expect(try await store.load() == nil)
        let credential = Credential(accessToken: "a", refreshToken: "r", expiresAt: Date(timeIntervalSince1970: 1_900_000_000), accountID: "u1")
        try await store.save(credential)
        #expect(try await store.load() == credential)

        let fileMode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        let folderMode = try FileManager.default.attributesOfItem(atPath: url.deletingLastPathComponent().path)[.posixPermissions] as? Int
        #expect(fileMode == 0o600)
        #expect(folderMode == 0o700)

        try await store.save(Credential(accessToken: "b"))
        #expect(try await store.load()?.accessToken == "b")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
        #expect(leftovers == ["credential.json"], "no temporary files are left behind")

        try await store.clear()
        #expect(try await store.load() == nil)
    }

    @Test func aCorruptFileIsATypedError() async throws {
        let url = temporaryFile()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent().deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("not json".utf8).write(to: url)
        await #expect(throws: CourierError.self) { _ = try await FileCredentialStore(url: url).load() }
    }

    @Test func theMemoryStoreKeepsAndForgets() async throws {
        let store = InMemoryCredentialStore(Credential(accessToken: "x"))
        #expect(try await store.load()?.accessToken == "x")
        try await store.clear()
        #expect(try await store.load() == nil)
    }
}
