import Courier
import CourierTesting
import CourierURLSession
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import ReferenceServer
import Testing

/// A 401 asking for HTTP authentication (`WWW-Authenticate: Basic`), as ordinary origins send,
/// comes back as an answer on every transport. swift-corelibs-foundation holds such a task on
/// an authentication challenge that it never completes by itself; before the transport
/// answered it, a call waited for its deadline and failed with `timedOut`. Each test has a
/// time limit, so that failure shows as one instead of a hang.
@Suite("A 401 asking for HTTP authentication is an answer", .timeLimit(.minutes(1)))
struct HTTPAuthenticationChallengeTests {
    private struct ErrorBody: Decodable { let code: String; let message: String }

    private func get(_ base: URL, _ path: String) -> HTTPRequest {
        HTTPRequest(method: .get, scheme: "http", authority: "\(base.host!):\(base.port!)", path: path)
    }

    @Test(arguments: TransportKind.allCases)
    func aBasicChallengeComesBackWithItsBody(_ kind: TransportKind) async throws {
        try await withReferenceServer { url in
            try await withTransport(kind) { transport in
                let (head, body) = try await transport.send(get(url, "/debug/basic-auth"), body: nil, context: RequestContext(endpoint: "test"))
                #expect(head.status == .unauthorized)
                #expect(head.headerFields[.wwwAuthenticate] == #"Basic realm="courier-debug""#)
                let data = try await body?.collect(upTo: Int.max) ?? Data()
                #expect(try JSONDecoder().decode(ErrorBody.self, from: data).code == "unauthorized")
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aLongChallengeBodyStreamsToItsEnd(_ kind: TransportKind) async throws {
        let size = 300_000
        try await withReferenceServer { url in
            try await withTransport(kind) { transport in
                let (head, body) = try await transport.send(
                    get(url, "/debug/basic-auth?size=\(size)"), body: nil, context: RequestContext(endpoint: "test")
                )
                #expect(head.status == .unauthorized)
                let data = try await body?.collect(upTo: Int.max) ?? Data()
                #expect(try JSONDecoder().decode(ErrorBody.self, from: data).message.count == size)
            }
        }
    }

    /// A file body goes out on Linux's URLSession as a stream, which swift-corelibs-foundation
    /// could not send again if it answered the challenge itself.
    @Test(arguments: TransportKind.allCases)
    func aFileUploadAnsweredWithAChallengeComesBackUnauthorized(_ kind: TransportKind) async throws {
        try await withTemporaryFolder { folder in
            let file = folder.appendingPathComponent("upload.bin")
            try patternBytes(300_000, seed: 2).write(to: file)
            try await withReferenceServer { url in
                try await withTransport(kind) { transport in
                    let client = APIClient(baseURL: url, transport: transport)
                    let error = await #expect(throws: CourierError.self) {
                        _ = try await client.upload(Request<Data>(method: .post, path: "/debug/basic-auth", body: try .file(file))).value()
                    }
                    #expect(error?.status == .unauthorized)
                    #expect(error?.attempts == 1)
                }
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func theClientReportsTheChallengeAsUnauthorizedWithoutRetrying(_ kind: TransportKind) async throws {
        try await withReferenceServer { url in
            try await withTransport(kind) { transport in
                let client = APIClient(baseURL: url, transport: transport)
                let error = await #expect(throws: CourierError.self) {
                    _ = try await client.send(Request<Data>(path: "/debug/basic-auth"))
                }
                #expect(error?.status == .unauthorized)
                #expect(error?.attempts == 1)
            }
        }
    }

    @Test func onAnInjectedSessionTheHeadComesBack() async throws {
        try await withReferenceServer { url in
            let session = URLSession(configuration: .ephemeral)
            defer { session.invalidateAndCancel() }
            let transport = URLSessionTransport(session: session)
            let (head, body) = try await transport.send(get(url, "/debug/basic-auth"), body: nil, context: RequestContext(endpoint: "test"))
            #expect(head.status == .unauthorized)
            let data = try await body?.collect(upTo: Int.max) ?? Data()
            #if canImport(FoundationNetworking)
            // swift-corelibs-foundation hands a cancelled task's completion handler no body.
            #expect(data.isEmpty)
            #else
            #expect(!data.isEmpty)
            #endif
        }
    }
}
