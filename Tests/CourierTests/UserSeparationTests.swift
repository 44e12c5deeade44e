@testable import Courier
import CourierAsyncHTTPClient
import CourierSQLite
import Crypto
import Foundation
import HTTPTypes
import ReferenceServer
import Testing

/// One user's cached data never reaches another: responses are stored under the identity
/// that signed them, cookies partition like tokens, `Set-Cookie` is never stored, and the
/// digests that stand for credentials are keyed.
@Suite("One user's cached data never reaches another")
struct UserSeparationTests {
    private static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func sha256AndHMACMatchThePublishedVectors() {
        #expect(Self.hex(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Self.hex(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Self.hex(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // RFC 4231, test cases 1 and 6 (a key longer than a block is hashed first).
        #expect(Self.hex(CredentialDigest(key: [UInt8](repeating: 0x0b, count: 20)).mac(Array("Hi There".utf8)))
            == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(Self.hex(CredentialDigest(key: [UInt8](repeating: 0xaa, count: 131)).mac(Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
            == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        let digest = CredentialDigest(key: Array("k".utf8))
        #expect(digest("Bearer token").count == 32)
        #expect(digest("Bearer token") != CredentialDigest(key: Array("another".utf8))("Bearer token"), "keyed: another store's digest differs")
    }

    /// Two clients sharing one cache, each signed by a network middleware of its own.
    private func withTwoUsers(
        _ first: (inout ClientConfiguration) -> Void, _ second: (inout ClientConfiguration) -> Void,
        _ body: (APIClient, APIClient, HTTPCache, ReferenceServer, URL) async throws -> Void
    ) async throws {
        try await withRunningServer { server, url in
            let transport = AsyncHTTPClientTransport()
            let cache = HTTPCache(storage: MemoryCacheStorage())
            var one = ClientConfiguration(baseURL: url, retryPolicy: .none)
            one.cache = cache
            var two = one
            first(&one)
            second(&two)
            do {
                try await body(APIClient(configuration: one, transport: transport), APIClient(configuration: two, transport: transport), cache, server, url)
                try await transport.shutdown()
            } catch {
                try? await transport.shutdown()
                throw error
            }
        }
    }

    private let privateEcho = Request<[String: String?]>(path: "/debug/private")

    @Test func aResponseSignedByANetworkMiddlewareIsStoredUnderItsSigner() async throws {
        try await withTwoUsers(
            { $0.networkMiddleware = [BearerTokenMiddleware(token: "alice")] },
            { $0.networkMiddleware = [BearerTokenMiddleware(token: "bob")] }
        ) { alice, bob, _, server, _ in
            let alicesPage = try await alice.send(privateEcho)
            let bobsPage = try await bob.send(privateEcho)
            #expect(alicesPage.value["authorization"] == "Bearer alice")
            #expect(bobsPage.value["authorization"] == "Bearer bob", "Bob never gets Alice's stored answer")
            #expect(bobsPage.metrics.cacheStatus == .network)
            #expect(await server.requestCount(path: "/debug/private") == 2)
        }
    }

    @Test func cookieAuthenticatedResponsesArePartitioned() async throws {
        try await withTwoUsers({ _ in }, { _ in }) { alice, bob, _, _, _ in
            var asAlice = privateEcho
            asAlice.headers[.cookie] = "sid=alice"
            var asBob = privateEcho
            asBob.headers[.cookie] = "sid=bob"
            _ = try await alice.send(asAlice)
            let again = try await alice.send(asAlice)
            let bobs = try await bob.send(asBob)
            #expect(again.metrics.cacheStatus == .hit, "the same cookie finds its own entry")
            #expect(bobs.value["cookie"] == "sid=bob")
            #expect(bobs.metrics.cacheStatus == .network)
        }
    }

    @Test func setCookieIsNeverStored() async throws {
        try await withTwoUsers({ _ in }, { _ in }) { client, _, cache, _, base in
            let first = try await client.send(privateEcho)
            #expect(first.headers[.setCookie] == "debug=1", "the caller still sees it")
            let second = try await client.send(privateEcho)
            #expect(second.metrics.cacheStatus == .hit)
            #expect(second.headers[.setCookie] == nil)
            let key = CacheKey(method: "GET", url: base.absoluteString + "/debug/private", partition: "")
            let stored = try await cache.storage.variants(for: key)
            #expect(stored.count == 1)
            #expect(stored.first?.values("Set-Cookie").isEmpty == true)
        }
    }

    @Test func anIdentityThatChangesBeforeSigningOwnsTheStoredResponse() async throws {
        let session = AuthSession(authenticator: SwitchingAuthenticator())
        try await session.signIn(Credential(accessToken: "alice-token", refreshToken: "alice-refresh", accountID: "alice"))
        try await withTwoUsers({ $0.auth = session }, { _ in }) { client, _, cache, server, base in
            // The server refuses Alice's token once; the session renews it, and the renewed
            // credential is Bob's: the lookup was Alice's, the signer is Bob.
            server.faults.inject(.status(401), count: 1, method: "GET", path: "/debug/private")
            let page = try await client.send(privateEcho)
            #expect(page.value["authorization"] == "Bearer bob-token")
            let url = base.absoluteString + "/debug/private"
            #expect(try await cache.storage.variants(for: CacheKey(method: "GET", url: url, partition: "alice")).isEmpty, "nothing of Bob's under Alice")
            #expect(try await cache.storage.variants(for: CacheKey(method: "GET", url: url, partition: "bob")).count == 1)
        }
    }

    @Test func theDiskCacheKeepsOneSecretPerStoreAndDerivesItFromAnEncryptionKey() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-digest-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try SQLiteCacheStorage(url: folder.appendingPathComponent("a.sqlite"))
        let reopened = try SQLiteCacheStorage(url: folder.appendingPathComponent("a.sqlite"))
        let another = try SQLiteCacheStorage(url: folder.appendingPathComponent("b.sqlite"))
        #expect(first.digestSecret != nil)
        #expect(first.digestSecret == reopened.digestSecret, "entries stay findable after a restart")
        #expect(first.digestSecret != another.digestSecret, "per store")
        let key = SymmetricKey(size: .bits256)
        let sealed = try SQLiteCacheStorage(url: folder.appendingPathComponent("c.sqlite"), encryptionKey: key)
        let sealedAgain = try SQLiteCacheStorage(url: folder.appendingPathComponent("d.sqlite"), encryptionKey: key)
        #expect(sealed.digestSecret == sealedAgain.digestSecret, "derived from the key, stored nowhere")
        #expect(HTTPCache(storage: TieredCacheStorage(memory: MemoryCacheStorage(), disk: first)).credentialDigest("x")
            == HTTPCache(storage: reopened).credentialDigest("x"))
    }
}

/// Renews any credential as Bob's.
private struct SwitchingAuthenticator: Authenticator {
    func refresh(_ credential: Credential) async throws -> Credential {
        Credential(accessToken: "bob-token", accountID: "bob")
    }
}
