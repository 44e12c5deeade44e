import Courier
import CourierAsyncHTTPClient
@testable import CourierURLSession
import Crypto
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOSSL
import Testing

/// The engines a TLS test runs on.
enum TLSEngine: String, CaseIterable, CustomStringConvertible, Sendable {
    case asyncHTTPClient
    case urlSession

    var description: String { rawValue }

    /// The engines that enforce trust roots, pins and versions here: URLSession only does on
    /// Apple platforms (on Linux it refuses such policies, tested apart).
    static var enforcingPolicies: [TLSEngine] {
        #if canImport(Security)
        return allCases
        #else
        return [.asyncHTTPClient]
        #endif
    }

    /// Makes a transport applying `tls`.
    func makeTransport(_ tls: TLSPolicy) throws -> any Transport {
        switch self {
        case .asyncHTTPClient: return AsyncHTTPClientTransport(configuration: .init(tls: tls))
        case .urlSession: return try URLSessionTransport(configuration: .ephemeral, tls: tls)
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

@Suite("TLS: trust roots, pinning and versions against a real HTTPS server")
struct TLSTests {
    private struct Ping: Decodable { var ok: Bool }

    /// Runs `body` with an HTTPS server presenting `certificates`' server certificate and a
    /// client on `engine` applying `tls`.
    private func withTLSClient(
        _ tls: TLSPolicy,
        engine: TLSEngine = .asyncHTTPClient,
        certificates: TestCertificates,
        serverMaximumVersion: TLSVersion? = nil,
        retryPolicy: RetryPolicy = .none,
        _ body: (APIClient, TLSTestServer) async throws -> Void
    ) async throws {
        let serverTLS = try certificates.serverTLSConfiguration(maximumVersion: serverMaximumVersion)
        try await TLSTestServer.withRunning(tlsConfiguration: serverTLS) { server, url in
            let transport = try engine.makeTransport(tls)
            let configuration = ClientConfiguration(baseURL: url, retryPolicy: retryPolicy, retryBudget: .unlimited)
            let client = APIClient(configuration: configuration, transport: transport)
            do {
                try await body(client, server)
                await engine.shutdown(transport)
            } catch {
                await engine.shutdown(transport)
                throw error
            }
        }
    }

    // MARK: - Trust roots and versions

    @Test(arguments: TLSEngine.enforcingPolicies)
    func aServerSignedByATrustedCustomRootIsReached(engine: TLSEngine) async throws {
        let certificates = try TestCertificates.make()
        let tls = TLSPolicy(trustRoots: .certificates([try certificates.caDER()]))
        try await withTLSClient(tls, engine: engine, certificates: certificates) { client, server in
            let ping = try await client.value(for: Request<Ping>(path: "/ping"))
            #expect(ping.ok)
            #expect(server.requestCount == 1)
        }
    }

    @Test(arguments: TLSEngine.allCases)
    func theSystemRootsRefuseAPrivateCAWithATLSFailure(engine: TLSEngine) async throws {
        let certificates = try TestCertificates.make()
        try await withTLSClient(TLSPolicy(), engine: engine, certificates: certificates) { client, server in
            let error = await courierError { _ = try await client.value(for: Request<Ping>(path: "/ping")) }
            #expect(error?.code == .tlsFailure, "\(String(describing: error))")
            #expect(server.requestCount == 0)
        }
    }

    @Test(arguments: TLSEngine.enforcingPolicies)
    func aTLS13MinimumFailsAgainstAServerLimitedToTLS12(engine: TLSEngine) async throws {
        let certificates = try TestCertificates.make()
        let tls = TLSPolicy(minimumVersion: .v1_3, trustRoots: .certificates([try certificates.caDER()]))
        try await withTLSClient(tls, engine: engine, certificates: certificates, serverMaximumVersion: .tlsv12) { client, server in
            let error = await courierError { _ = try await client.value(for: Request<Ping>(path: "/ping")) }
            #expect(error?.code == .tlsFailure, "\(String(describing: error))")
            #expect(server.requestCount == 0)
        }
    }

    // MARK: - Pinning on AsyncHTTPClient

    @Test(arguments: TLSEngine.enforcingPolicies)
    func aPinOfTheServerKeyConnects(engine: TLSEngine) async throws {
        let certificates = try TestCertificates.make()
        let tls = TLSPolicy(
            trustRoots: .certificates([try certificates.caDER()]),
            pinnedPublicKeys: ["sha256/" + certificates.serverKeyPin, TestCertificates.unrelatedKeyPin]
        )
        try await withTLSClient(tls, engine: engine, certificates: certificates) { client, server in
            let first = try await client.value(for: Request<Ping>(path: "/ping"))
            let second = try await client.value(for: Request<Ping>(path: "/ping"))
            #expect(first.ok && second.ok)
            #expect(server.requestCount == 2)
        }
    }

    @Test(arguments: TLSEngine.enforcingPolicies)
    func aPinOfTheCAKeyConnectsBecauseAnyKeyOfTheChainMatches(engine: TLSEngine) async throws {
        let certificates = try TestCertificates.make()
        let tls = TLSPolicy(trustRoots: .certificates([try certificates.caDER()]), pinnedPublicKeys: [certificates.caKeyPin])
        try await withTLSClient(tls, engine: engine, certificates: certificates) { client, server in
            let ping = try await client.value(for: Request<Ping>(path: "/ping"))
            #expect(ping.ok)
            #expect(server.requestCount == 1)
        }
    }

    @Test(arguments: TLSEngine.enforcingPolicies)
    func aWrongPinFailsBeforeAnyRequestIsSentAndIsNeverRetried(engine: TLSEngine) async throws {
        let certificates = try TestCertificates.make()
        let tls = TLSPolicy(
            trustRoots: .certificates([try certificates.caDER()]),
            pinnedPublicKeys: [TestCertificates.unrelatedKeyPin]
        )
        let fiveAttempts = RetryPolicy(maxAttempts: 5, backoff: .none)
        try await withTLSClient(tls, engine: engine, certificates: certificates, retryPolicy: fiveAttempts) { client, server in
            let error = await courierError { _ = try await client.value(for: Request<Ping>(path: "/ping")) }
            #expect(error?.code == .tlsFailure, "\(String(describing: error))")
            #expect(error?.message.contains("public key pin mismatch") == true)
            #expect(error?.message.contains("sha256/" + certificates.serverKeyPin) == true)
            #expect(error?.underlying is TLSPolicy.PinMismatch)
            #expect(error?.attempts == 1)
            #expect(server.connectionCount == 1)
            #expect(server.requestCount == 0)
            let refusedConnectionClosed = try await server.waitForClosedConnections(1)
            #expect(refusedConnectionClosed, "the refused connection was left open")
        }
    }

    @Test func aCAPinIsRefusedWhenSystemRootsAlsoCountBecauseOnlyTheLeafIsVisible() async throws {
        let certificates = try TestCertificates.make()
        let tls = TLSPolicy(trustRoots: .systemPlus([try certificates.caDER()]), pinnedPublicKeys: [certificates.caKeyPin])
        try await withTLSClient(tls, certificates: certificates) { client, server in
            let error = await courierError { _ = try await client.value(for: Request<Ping>(path: "/ping")) }
            #expect(error?.code == .tlsFailure, "\(String(describing: error))")
            #expect(error?.message.contains("only the leaf certificate") == true)
            #expect(server.requestCount == 0)
        }
    }

    @Test func aMalformedPinFailsEveryRequestLoudly() async throws {
        let transport = AsyncHTTPClientTransport(configuration: .init(tls: TLSPolicy(pinnedPublicKeys: ["sha256/not-a-digest"])))
        let client = APIClient(configuration: ClientConfiguration(baseURL: URL(string: "https://127.0.0.1:1")!), transport: transport)
        let error = await courierError { _ = try await client.value(for: Request<Ping>(path: "/ping")) }
        #expect(error?.code == .invalidRequest)
        #expect(error?.message.contains("not-a-digest") == true)
        try await transport.shutdown()
    }
}

@Suite("TLS: the policy value and the engine-neutral helpers")
struct TLSPolicyTests {
    @Test func pinsWithAndWithoutThePrefixAreTheSamePin() {
        let digest = String(repeating: "A", count: 43) + "="
        let prefixed = TLSPolicy(pinnedPublicKeys: ["sha256/" + digest])
        let bare = TLSPolicy(pinnedPublicKeys: [digest])
        #expect(prefixed == bare)
        #expect(prefixed.pinnedPublicKeys == [digest])
        #expect(throws: Never.self) { try prefixed.validate() }
    }

    @Test func aPinThatIsNotASHA256DigestAndAnEmptyRootListAreRejected() {
        #expect(throws: CourierError.self) { try TLSPolicy(pinnedPublicKeys: ["c2hvcnQ="]).validate() }
        #expect(throws: CourierError.self) { try TLSPolicy(trustRoots: .certificates([])).validate() }
    }

    @Test func theMismatchNamesEverySeenPin() throws {
        let policy = TLSPolicy(pinnedPublicKeys: [TestCertificates.unrelatedKeyPin])
        let error = #expect(throws: TLSPolicy.PinMismatch.self) { try policy.checkPins(["leafPin=", "caPin="]) }
        #expect(error?.description.contains("public key pin mismatch") == true)
        #expect(error?.description.contains("sha256/leafPin=, sha256/caPin=") == true)
        #expect(throws: Never.self) { try TLSPolicy().checkPins([]) }
    }

    @Test func theSPKIReadFromACertificateIsTheKeyNIOSSLAndSwiftCryptoSee() throws {
        let certificates = try TestCertificates.make()
        for (der, key) in [(try certificates.serverDER(), certificates.serverKey), (try certificates.caDER(), certificates.caKey)] {
            let spki = try #require(SubjectPublicKeyInfoReader.subjectPublicKeyInfo(inCertificate: der))
            #expect(spki == key.publicKey.derRepresentation)
            let nioSSLSPKI = try NIOSSLCertificate(bytes: Array(der), format: .der).extractPublicKey().toSPKIBytes()
            #expect(Array(spki) == nioSSLSPKI)
        }
        #expect(SubjectPublicKeyInfoReader.subjectPublicKeyInfo(inCertificate: Data([0x30, 0x03, 0x02, 0x01])) == nil)
    }

    #if !canImport(Security)
    @Test func urlSessionOnLinuxRefusesWhatItCannotEnforce() throws {
        let refused = [
            TLSPolicy(pinnedPublicKeys: [TestCertificates.unrelatedKeyPin]),
            TLSPolicy(trustRoots: .systemPlus([Data([0x30])])),
            TLSPolicy(minimumVersion: .v1_3),
        ]
        for policy in refused {
            let error = #expect(throws: CourierError.self) { try URLSessionTransport(configuration: .ephemeral, tls: policy) }
            #expect(error?.code == .invalidRequest)
        }
        let transport = try URLSessionTransport(configuration: .ephemeral, tls: TLSPolicy())
        transport.session.invalidateAndCancel()
    }
    #endif
}
