import Courier
import CourierAsyncHTTPClient
import Foundation
import ReferenceServer
import Testing

@Suite("Many accounts in one client")
struct AccountSessionsTests {
    private func withAccountsClient(
        configure: (inout ClientConfiguration) -> Void = { _ in },
        _ body: (APIClient, AccountSessions, ReferenceServer) async throws -> Void
    ) async throws {
        try await withRunningServer { server, url in
            let transport = AsyncHTTPClientTransport()
            let accounts = AccountSessions(authenticator: StoredBearer()) { _ in InMemoryCredentialStore() }
            var configuration = ClientConfiguration(baseURL: url)
            configuration.accounts = accounts
            configure(&configuration)
            do {
                try await body(APIClient(configuration: configuration, transport: transport), accounts, server)
            } catch {
                try? await transport.shutdown()
                throw error
            }
            try await transport.shutdown()
        }
    }

    private func write(_ number: Int, as account: String) -> Request<Void> {
        var request = Request<Void>(method: .post, path: "/fleet/accounts/\(account)/writes", body: .json(FleetWrite(write: number, seq: number)))
        request.options.account = account
        request.options.idempotencyKey = UUID().uuidString
        return request
    }

    @Test func eachRequestIsSignedAsTheAccountItNames() async throws {
        try await withAccountsClient { client, accounts, server in
            for name in ["alice", "bob", "carol"] {
                try await accounts.signIn(Credential(accessToken: server.fleet.accountToken(for: name)), account: name)
            }
            for (number, name) in ["alice", "bob", "carol", "alice"].enumerated() {
                #expect(try await client.send(write(number, as: name)).status.code == 201)
            }
            await #expect { try await client.send(write(9, as: "dave")) } throws: { ($0 as? CourierError)?.code == .unauthorized }
            #expect(await server.fleet.stats().applied == 4)
        }
    }

    @Test func aRequestNamingAnAccountNeedsAccountSessions() async throws {
        try await withRunningServer { _, url in
            let transport = AsyncHTTPClientTransport()
            let client = APIClient(baseURL: url, transport: transport)
            var request = Request<Data>(path: "/fleet/quota")
            request.options.account = "alice"
            await #expect { try await client.send(request) } throws: { ($0 as? CourierError)?.code == .invalidRequest }
            try await transport.shutdown()
        }
    }

    @Test func eachAccountReadsFromItsOwnCachePartition() async throws {
        try await withAccountsClient(configure: { $0.cache = HTTPCache(storage: MemoryCacheStorage()) }) { client, accounts, server in
            for name in ["alice", "bob"] {
                try await accounts.signIn(Credential(accessToken: server.fleet.accountToken(for: name)), account: name)
            }
            for name in ["alice", "alice", "bob", "bob"] {
                var request = Request<Data>(path: "/fleet/resources/1")
                request.options.account = name
                _ = try await client.send(request)
            }
            #expect(await server.fleet.stats().fullResponses == 2, "one full response per account; each account's second read is its own cached one")
        }
    }

    @Test func aPerAccountQuotaCountsEachAccountApart() async throws {
        try await withAccountsClient(configure: { configuration in
            configuration.quota = QuotaPolicy(
                rules: [QuotaRule(name: "fleet", hosts: ["127.0.0.1"], windows: [QuotaWindow(limit: 1, length: .seconds(3_600))], perAccount: true)],
                whenExhausted: .fail
            )
        }) { client, accounts, server in
            for name in ["alice", "bob"] {
                try await accounts.signIn(Credential(accessToken: server.fleet.accountToken(for: name)), account: name)
            }
            _ = try await client.send(write(1, as: "alice"))
            await #expect { try await client.send(write(2, as: "alice")) } throws: { ($0 as? CourierError)?.code == .rateLimited }
            #expect(try await client.send(write(3, as: "bob")).status.code == 201)
        }
    }
}
