import Courier
import CourierTesting
@testable import CourierURLSession
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import ReferenceServer
import Testing

/// `URLSessionTransport(session:)`, on a session the caller made (no delegate of the
/// transport's): on Linux each request is a data task with a completion handler, which must
/// keep the transport's rules as its own session does.
@Suite("URLSession transport on an injected session")
struct URLSessionInjectedSessionTests {
    private func get(_ base: URL, _ path: String) -> HTTPRequest {
        HTTPRequest(method: .get, scheme: "http", authority: "\(base.host!):\(base.port!)", path: path)
    }

    /// Runs `body` with a transport on a fresh ephemeral session, invalidated afterwards.
    private func withInjectedSession<T>(_ body: (URLSessionTransport) async throws -> T) async throws -> T {
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        return try await body(URLSessionTransport(session: session))
    }

    @Test func aBodyComesWholeWithTheHeadAndNoDeadlineIsLeftBehind() async throws {
        try await withReferenceServer { url in
            try await withInjectedSession { transport in
                let context = RequestContext(endpoint: "test", options: RequestOptions(timeout: .seconds(30)))
                let (head, body) = try await transport.send(get(url, "/debug/bytes?count=100000"), body: nil, context: context)
                #expect(head.status == .ok)
                let data = try await #require(body).collect(upTo: Int.max)
                #expect(data.count == 100_000)
                #expect(GeneratedBytes.match(data, at: 0))
                #expect(transport.deadlines.count == 0)
            }
        }
    }

    @Test func aRedirectComesBackInsteadOfBeingFollowed() async throws {
        try await withReferenceServer { url in
            try await withInjectedSession { transport in
                let (head, _) = try await transport.send(
                    get(url, "/debug/redirect?to=/debug/ping&status=307"), body: nil, context: RequestContext(endpoint: "test")
                )
                #expect(head.status.code == 307)
                #expect(head.headerFields[.location] == "/debug/ping")
            }
        }
    }

    @Test func aBodyPastTheLimitFailsWithResponseTooLarge() async throws {
        try await withReferenceServer { url in
            try await withInjectedSession { transport in
                let context = RequestContext(endpoint: "test", options: RequestOptions(maxResponseBytes: 1 << 20))
                let error = await #expect(throws: CourierError.self) {
                    let (_, body) = try await transport.send(get(url, "/debug/bytes?count=\(2 << 20)&chunked=1"), body: nil, context: context)
                    _ = try await body?.collect(upTo: Int.max)
                }
                #expect(error?.code == .responseTooLarge)
            }
        }
    }

    /// The server sends the head and then nothing: only the transport's deadline ends the call.
    @Test func aDeadlineThatPassesFailsTheCallWithTimedOut() async throws {
        try await withStallingServer { server in
            try await withInjectedSession { transport in
                let context = RequestContext(endpoint: "test", options: RequestOptions(timeout: .seconds(1)))
                let error = await #expect(throws: CourierError.self) {
                    let (_, body) = try await transport.send(get(server.url, "/stall"), body: nil, context: context)
                    _ = try await body?.collect(upTo: Int.max)
                }
                #expect(error?.code == .timedOut)
                #expect(transport.deadlines.count == 0)
            }
        }
    }

    @Test func cancellingTheCallerEndsTheCallWithCancelled() async throws {
        try await withStallingServer { server in
            try await withInjectedSession { transport in
                let request = get(server.url, "/stall")
                let call = Task {
                    let (_, body) = try await transport.send(request, body: nil, context: RequestContext(endpoint: "test"))
                    return try await body?.collect(upTo: Int.max)
                }
                call.cancel()
                let error = await #expect(throws: CourierError.self) { try await call.value }
                #expect(error?.code == .cancelled)
            }
        }
    }
}
