import Courier
import CourierAsyncHTTPClient
import CourierURLSession
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReferenceServer

/// The two engines every transport test runs against.
enum TransportKind: String, CaseIterable, CustomStringConvertible, Sendable {
    case asyncHTTPClient
    case urlSession

    var description: String { rawValue }

    /// Makes the transport; ``shutdown(_:)`` releases it.
    func make() -> any Transport {
        switch self {
        case .asyncHTTPClient:
            // The connect timeout also bounds a request's wait for a pooled connection, a wait
            // the thread sanitizer's slowness lengthens like any other (``testPatience``).
            return AsyncHTTPClientTransport(configuration: .init(connectTimeout: .seconds(10 * testPatience)))
        case .urlSession: return URLSessionTransport()
        }
    }

    func shutdown(_ transport: any Transport) async {
        if let transport = transport as? AsyncHTTPClientTransport {
            try? await transport.shutdown()
        } else if let transport = transport as? URLSessionTransport {
            transport.session.invalidateAndCancel()
        }
    }
}

/// Runs `body` with a reference server on an ephemeral loopback port, stopped afterwards.
///
/// The server has its `/debug` routes on and cheap password hashing, whatever `configuration`
/// says (see ``ReferenceServerConfiguration/preparedForTests()``).
/// It runs on the caller's actor (`nonisolated(nonsending)`), so main-actor tests can use it.
nonisolated(nonsending) func withRunningServer<T>(
    _ configuration: ReferenceServerConfiguration = ReferenceServerConfiguration(),
    _ body: (ReferenceServer, URL) async throws -> T
) async throws -> T {
    let server = ReferenceServer(configuration: configuration.preparedForTests())
    let url = try await server.start()
    do {
        let result = try await body(server, url)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// Runs `body` with a reference server's URL.
func withReferenceServer<T>(
    _ configuration: ReferenceServerConfiguration = ReferenceServerConfiguration(),
    _ body: (URL) async throws -> T
) async throws -> T {
    try await withRunningServer(configuration) { _, url in try await body(url) }
}

/// Runs `body` with a reference server (started on port 0) behind a ``TCPGate`` that refuses
/// connections until `body` opens it: "the server is unreachable, then reachable". Clients
/// point at the gate's URL; the test controls, counts and issues tokens through the server.
/// Both are stopped afterwards, whether `body` returned or threw.
nonisolated(nonsending) func withGatedServer<T>(
    _ configuration: ReferenceServerConfiguration = ReferenceServerConfiguration(),
    _ body: (ReferenceServer, TCPGate) async throws -> T
) async throws -> T {
    try await withRunningServer(configuration) { server, url in
        let gate = try TCPGate(upstream: url)
        let result: T
        do {
            result = try await body(server, gate)
        } catch {
            await gate.stop()
            throw error
        }
        await gate.stop()
        return result
    }
}

/// Runs `body` with a new transport of `kind`, shut down afterwards whether `body` returned
/// or threw: an AsyncHTTPClient left running traps in its deinit and ends the whole run.
nonisolated(nonsending) func withTransport<T>(
    _ kind: TransportKind = .asyncHTTPClient,
    _ body: (any Transport) async throws -> T
) async throws -> T {
    let transport = kind.make()
    let result: T
    do {
        result = try await body(transport)
    } catch {
        await kind.shutdown(transport)
        throw error
    }
    await kind.shutdown(transport)
    return result
}

/// Runs `body` with an AsyncHTTPClient transport the caller configured (TLS, pool size), shut
/// down afterwards whether `body` returned or threw.
nonisolated(nonsending) func withTransport<T>(
    _ transport: AsyncHTTPClientTransport,
    _ body: (AsyncHTTPClientTransport) async throws -> T
) async throws -> T {
    let result: T
    do {
        result = try await body(transport)
    } catch {
        try? await transport.shutdown()
        throw error
    }
    try await transport.shutdown()
    return result
}

/// An access token for the server's demo account.
func demoToken(_ server: ReferenceServer) async throws -> String {
    try await server.issueTokens(email: ReferenceServerConfiguration().demoEmail).accessToken
}

/// Runs `body` with a reference server and a client on the given engine.
func withClient<T>(
    _ kind: TransportKind,
    configure: (inout ClientConfiguration) -> Void = { _ in },
    _ body: (APIClient, URL) async throws -> T
) async throws -> T {
    try await withReferenceServer { url in
        try await withTransport(kind) { transport in
            var configuration = ClientConfiguration(baseURL: url)
            configure(&configuration)
            return try await body(APIClient(configuration: configuration, transport: transport), url)
        }
    }
}

/// Runs `body` and returns the ``CourierError`` it threw; records an issue if it threw
/// nothing or something else.
func courierError(_ body: () async throws -> Void) async -> CourierError? {
    do {
        try await body()
        return nil
    } catch let error as CourierError {
        return error
    } catch {
        return CourierError(code: .transportFailed, message: "not a CourierError: \(error)")
    }
}
