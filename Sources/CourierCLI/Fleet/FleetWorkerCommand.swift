import ArgumentParser
import Courier
import CourierAsyncHTTPClient
import CourierPostgres
import Foundation
import HTTPTypes

/// `courier fleet-worker`: one process of a fleet, sharing its outbox, quota, credential and
/// cache with the others through PostgreSQL (started by `courier fleet` and
/// `courier bench --only fleet`). Hidden.
struct FleetWorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet-worker",
        abstract: "One process of a fleet sharing its state through PostgreSQL (courier fleet's helper).",
        shouldDisplay: false
    )

    enum Role: String, ExpressibleByArgument { case outbox, quota, refresh, cache }

    @Argument(help: "outbox, quota, refresh or cache")
    var role: Role
    @Option(help: "The reference server's base URL.")
    var server: String
    /// The PostgreSQL URL comes in the environment (`COURIER_POSTGRES_URL`), not the command
    /// line, where other users could read its password.
    static let postgresVariable = "COURIER_POSTGRES_URL"
    @Option(help: "This worker's number in the fleet.")
    var index = 0
    @Option(help: "Calls to make (quota, refresh) or resources to read (cache).")
    var calls = 200
    @Option(help: "Calls in flight at once.")
    var concurrency = 25
    @Option(help: "Outbox: the lease of a claim, in seconds.")
    var lease = 5
    @Option(help: "Quota: the window's limit.")
    var quotaLimit = 100
    @Option(help: "Quota: the window's length in seconds.")
    var quotaWindow = 15
    @Option(help: "The name of the shared outbox, quota or cache (one per run).")
    var store = "default"

    func run() async throws {
        guard let url = URL(string: server) else { throw ValidationError("not a URL: \(server)") }
        guard let postgres = ProcessInfo.processInfo.environment[Self.postgresVariable] else {
            throw ValidationError("\(Self.postgresVariable) names no PostgreSQL URL")
        }
        let database = try await PostgresDatabase.connect(url: postgres, maximumConnections: 8)
        let transport = AsyncHTTPClientTransport()
        do {
            switch role {
            case .outbox: try await deliverOutbox(url, database, transport)
            case .quota: try await spendQuota(url, database, transport)
            case .refresh: try await meetExpiredToken(url, database, transport)
            case .cache: try await readShared(url, database, transport)
            }
        } catch {
            try? await transport.shutdown()
            await database.shutdown()
            throw error
        }
        try? await transport.shutdown()
        await database.shutdown()
    }

    /// Delivers the outbox's writes, as every account, until the process is stopped; prints
    /// `delivered` for each.
    private func deliverOutbox(_ url: URL, _ database: PostgresDatabase, _ transport: any Transport) async throws {
        let storage = PostgresQueueStorage(database: database, name: store, lease: .seconds(lease))
        let queue = OfflineQueue(storage: storage, maxAttempts: 50, backoff: Backoff(.constant(.milliseconds(250)), jitter: .none))
        var configuration = ClientConfiguration(baseURL: url)
        configuration.offlineQueue = queue
        configuration.accounts = AccountSessions(authenticator: FleetBearer()) { PostgresCredentialStore(database: database, account: $0) }
        configuration.retryPolicy = .none
        let client = APIClient(configuration: configuration, transport: transport)
        for await event in queue.events() {
            if case .delivered = event { FileHandle.standardOutput.write(Data("delivered\n".utf8)) }
            _ = client
        }
    }

    /// Makes `calls` calls within the fleet's shared quota; prints `ok N failed M`.
    private func spendQuota(_ url: URL, _ database: PostgresDatabase, _ transport: any Transport) async throws {
        var configuration = ClientConfiguration(baseURL: url)
        let host = url.host ?? "127.0.0.1"
        configuration.quota = QuotaPolicy(
            rules: [QuotaRule(name: store, hosts: [host], windows: [QuotaWindow(limit: quotaLimit, length: .seconds(quotaWindow))])],
            store: PostgresQuotaStore(database: database)
        )
        configuration.timeout = .seconds(3_600)
        let client = APIClient(configuration: configuration, transport: transport)
        let (ok, failed) = await Self.inParallel(calls, concurrency) { _ in
            _ = try await client.send(Request<Data>(path: "/fleet/quota", options: RequestOptions(requiresAuth: false, deduplicates: false)))
        }
        print("ok \(ok) failed \(failed)")
    }

    /// Makes `calls` concurrent signed calls with the fleet's one shared, expired credential.
    private func meetExpiredToken(_ url: URL, _ database: PostgresDatabase, _ transport: any Transport) async throws {
        let session = AuthSession(
            authenticator: FleetRefresher(client: APIClient(baseURL: url, transport: transport)),
            store: PostgresCredentialStore(database: database, account: store)
        )
        var configuration = ClientConfiguration(baseURL: url)
        configuration.auth = session
        configuration.retryPolicy = .none
        let client = APIClient(configuration: configuration, transport: transport)
        let (ok, failed) = await Self.inParallel(calls, calls) { _ in
            _ = try await client.send(Request<Data>(path: "/fleet/protected", options: RequestOptions(deduplicates: false)))
        }
        print("ok \(ok) failed \(failed)")
    }

    /// Reads `calls` resources through the shared cache, starting at a different one in each process.
    private func readShared(_ url: URL, _ database: PostgresDatabase, _ transport: any Transport) async throws {
        var configuration = ClientConfiguration(baseURL: url)
        configuration.cache = HTTPCache(storage: try await PostgresCacheStorage(database: database, name: store, maxBytes: 64 << 20))
        let client = APIClient(configuration: configuration, transport: transport)
        var ok = 0
        var failed = 0
        for step in 0..<calls {
            let resource = (step + index * (calls / 4)) % calls
            do {
                _ = try await client.send(Request<Data>(path: "/fleet/resources/\(resource)", options: RequestOptions(requiresAuth: false)))
                ok += 1
            } catch {
                failed += 1
            }
        }
        print("ok \(ok) failed \(failed)")
    }

    /// Runs `count` calls, `width` at a time; counts successes and failures.
    private static func inParallel(_ count: Int, _ width: Int, _ call: @escaping @Sendable (Int) async throws -> Void) async -> (Int, Int) {
        await withTaskGroup(of: Bool.self) { group in
            var next = 0
            var ok = 0
            var failed = 0
            func add() {
                guard next < count else { return }
                let number = next
                next += 1
                group.addTask { (try? await call(number)) != nil }
            }
            for _ in 0..<max(1, width) { add() }
            while let result = await group.next() {
                if result { ok += 1 } else { failed += 1 }
                add()
            }
            return (ok, failed)
        }
    }
}

/// Signs with the stored bearer token; the fleet's account tokens never expire.
struct FleetBearer: Authenticator {
    func refresh(_ credential: Credential) async throws -> Credential {
        throw CourierError(code: .unauthorized, message: "the fleet's account tokens are not renewed")
    }
}

/// Renews the fleet's shared credential at the reference server's `/fleet/oauth/token`, whose
/// refresh tokens rotate (each works once).
struct FleetRefresher: Authenticator {
    let client: APIClient

    private struct Answer: Decodable, Sendable {
        var accessToken: String
        var refreshToken: String
        var expiresIn: Int

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token", refreshToken = "refresh_token", expiresIn = "expires_in"
        }
    }

    func refresh(_ credential: Credential) async throws -> Credential {
        guard let refreshToken = credential.refreshToken else {
            throw CourierError(code: .unauthorized, message: "no refresh token")
        }
        var form = URLComponents()
        form.queryItems = [URLQueryItem(name: "grant_type", value: "refresh_token"), URLQueryItem(name: "refresh_token", value: refreshToken)]
        let request = Request<Answer>(
            method: .post, path: "/fleet/oauth/token",
            body: .data(Data((form.percentEncodedQuery ?? "").utf8), contentType: "application/x-www-form-urlencoded"),
            options: RequestOptions(requiresAuth: false, retryPolicy: RetryPolicy.none, deduplicates: false)
        )
        let answer = try await client.send(request).value
        return Credential(
            accessToken: answer.accessToken, refreshToken: answer.refreshToken,
            expiresAt: Date(timeIntervalSinceNow: TimeInterval(answer.expiresIn)), accountID: credential.accountID, issuedAt: Date()
        )
    }
}
