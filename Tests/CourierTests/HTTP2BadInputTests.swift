import Courier
import CourierAsyncHTTPClient
import CourierTesting
import Foundation
import Testing

/// HTTP/2 servers that misbehave, as a hostile or broken one would: no streams allowed, a
/// header block too large, a flood of pings, a `GOAWAY` in the middle of a download or an
/// upload. Each call ends in time with a typed error or a safe retry, and nothing goes twice
/// that the server may have applied.
@Suite("HTTP/2 servers that misbehave")
struct HTTP2BadInputTests {
    /// A client that trusts the hostile server's CA, with the given retry policy.
    private func withClient<T>(
        _ server: HostileHTTP2Server,
        retryPolicy: RetryPolicy = RetryPolicy(maxAttempts: 3, backoff: .none),
        _ body: (APIClient) async throws -> T
    ) async throws -> T {
        let transport = AsyncHTTPClientTransport(configuration: .init(
            connectTimeout: .seconds(10 * testPatience), tls: TLSPolicy(trustRoots: .certificates([server.caDER]))
        ))
        return try await withTransport(transport) { transport in
            let configuration = ClientConfiguration(baseURL: server.url, timeout: .seconds(10 * testPatience), retryPolicy: retryPolicy)
            return try await body(APIClient(configuration: configuration, transport: transport))
        }
    }

    private func upload(bytes: Int) -> Request<Data> {
        Request<Data>(method: .post, path: "/upload", body: .data(Data(repeating: 0x61, count: bytes), contentType: "application/octet-stream"))
    }

    @Test(.timeLimit(.minutes(1))) func aServerOfferingOnlyAnALPNProtocolTheClientDoesNotSpeakGivesATypedError() async throws {
        try await HostileHTTP2Server.with(.offersOnlyALPN("spdy/3.1")) { server in
            try await withClient(server, retryPolicy: .none) { client in
                let error = await courierError { _ = try await client.send(Request<Data>(path: "/items")) }
                #expect(error?.code == .invalidResponse, "\(String(describing: error))")
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func aServerAllowingNoStreamsEndsTheCallAtItsTimeoutWithNothingSent() async throws {
        try await HostileHTTP2Server.with(.zeroConcurrentStreams) { server in
            try await withClient(server, retryPolicy: .none) { client in
                let error = await courierError { _ = try await client.send(Request<Data>(path: "/items").timeout(.milliseconds(500))) }
                #expect(error?.code == .timedOut)
                #expect(server.requests == 0, "no stream was ever opened")
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func aHeaderBlockPastTheAnnouncedSizeEndsTheCallAtOnce() async throws {
        // About 400 KB of fields in a block of about 4 KB, against the 16 KB the client announced.
        try await HostileHTTP2Server.with(.oversizedHeaderBlock(copies: 100)) { server in
            try await withClient(server) { client in
                let error = await courierError { _ = try await client.send(Request<Data>(path: "/items")) }
                // The connection NIOHTTP2 found broken is closed at once (the server never closes
                // it; left open, each attempt would end at its timeout, as `timedOut`): a lost
                // connection before any answer, which a GET may try again, within the
                // policy's three attempts and one more for the first such loss. (An attempt
                // AsyncHTTPClient gave the closing connection never reached the server.)
                #expect(error?.code == .connectionLost)
                #expect(error?.attempts == 4)
                #expect((1...4).contains(server.requests))
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func aFloodOfPingsClosesTheConnectionAndEndsTheCall() async throws {
        // 20,000 PINGs before the answer: past NIOHTTP2's limit on the control frames it must answer.
        try await HostileHTTP2Server.with(.pingFlood(count: 20_000)) { server in
            try await withClient(server, retryPolicy: .none) { client in
                let error = await courierError { _ = try await client.send(Request<Data>(path: "/items")) }
                // Not the call's timeout (10 s): the broken connection was closed under it.
                #expect(error?.code == .connectionLost)
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func aGoAwayInTheMiddleOfADownloadIsALossAfterPartOfTheAnswer() async throws {
        try await HostileHTTP2Server.with(.goAwayMidDownload(afterBytes: 4_096)) { server in
            try await withClient(server) { client in
                // A GET may go again: each attempt is cut the same way, until the policy's three.
                let get = await courierError { _ = try await client.send(Request<Data>(path: "/items")) }
                #expect(get?.code == .connectionLost)
                #expect(get?.neverProcessed == false, "part of the answer came: the server processed it")
                let gets = server.requests
                #expect(gets >= 3)

                // A POST without a key is not sent again: the server answered part of it.
                let post = await courierError { _ = try await client.send(upload(bytes: 16)) }
                #expect(post?.code == .connectionLost)
                #expect(post?.attempts == 1)
                #expect(server.requests == gets + 1)
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func aGoAwayInTheMiddleOfAnUploadNamingNoStreamProcessedEndsInATypedError() async throws {
        try await HostileHTTP2Server.with(.goAwayMidUpload(afterBytes: 16 << 10)) { server in
            try await withClient(server) { client in
                let error = await courierError { _ = try await client.send(upload(bytes: 1 << 20)) }
                #expect(error?.code == .connectionLost)
                // The server's GOAWAY said it processed no stream: the POST may go again, within
                // the policy's attempts (one more for the first loss before an answer).
                #expect(error?.neverProcessed == true)
                #expect(error?.attempts == 4)
                #expect(server.requests == 4)
            }
        }
    }
}
