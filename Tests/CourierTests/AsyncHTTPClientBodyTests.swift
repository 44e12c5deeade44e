import Courier
import CourierAsyncHTTPClient
import Foundation
import HTTPTypes
import Testing

/// How ``AsyncHTTPClientTransport`` hands response bodies over: small ones of a known length
/// already read, the rest as a stream.
@Suite("AsyncHTTPClient transport: response bodies")
struct AsyncHTTPClientBodyTests {
    /// Sends a GET for `path` and hands the response to `inspect` while the transport still runs.
    private func send(
        _ url: URL,
        path: String,
        maxResponseBytes: Int? = nil,
        inspect: (HTTPResponse, HTTPBody?) async throws -> Void
    ) async throws {
        let transport = AsyncHTTPClientTransport()
        do {
            var options = RequestOptions()
            options.maxResponseBytes = maxResponseBytes
            let request = HTTPRequest(method: .get, scheme: "http", authority: "\(url.host!):\(url.port!)", path: path)
            let (response, body) = try await transport.send(request, body: nil, context: RequestContext(endpoint: "test", options: options))
            try await inspect(response, body)
            try await transport.shutdown()
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }

    private func expectedBytes(_ count: Int) -> Data {
        Data((0..<count).map { UInt8($0 % 251) })
    }

    @Test func aSmallBodyOfKnownLengthArrivesReadAndCanBeReadTwice() async throws {
        try await withReferenceServer { url in
            try await send(url, path: "/debug/bytes?count=1000") { response, received in
                #expect(response.status == .ok)
                let body = try #require(received)
                #expect(body.iterationBehavior == .multiple)
                #expect(try await body.collect(upTo: 1_000) == expectedBytes(1_000))
                #expect(try await body.collect(upTo: 1_000) == expectedBytes(1_000))
            }
        }
    }

    @Test func aBodyPastTheEagerLimitIsStreamedOnce() async throws {
        let count = AsyncHTTPClientTransport.eagerBodyLimit + 1
        try await withReferenceServer { url in
            try await send(url, path: "/debug/bytes?count=\(count)") { _, received in
                let body = try #require(received)
                #expect(body.iterationBehavior == .single)
                #expect(try await body.collect(upTo: count) == expectedBytes(count))
                await #expect(throws: HTTPBody.AlreadyConsumedError.self) { _ = try await body.collect(upTo: count) }
            }
        }
    }

    @Test func aBodyWhoseLengthIsPastTheCallsLimitIsRefusedWithItsHead() async throws {
        try await withReferenceServer { url in
            let error = await courierError {
                try await send(url, path: "/debug/bytes?count=2000", maxResponseBytes: 1_000) { _, _ in
                    Issue.record("the body was handed on")
                }
            }
            #expect(error?.code == .responseTooLarge)
        }
    }

    @Test func aBodyOfUnknownLengthStopsWhenItGrowsPastTheCallsLimit() async throws {
        try await withReferenceServer { url in
            try await send(url, path: "/debug/bytes?count=200000&chunked=1", maxResponseBytes: 100_000) { _, received in
                let body = try #require(received)
                #expect(body.iterationBehavior == .single)
                let error = await courierError { _ = try await body.collect(upTo: 1 << 20) }
                #expect(error?.code == .responseTooLarge, "the transport's limit, below what the caller would read")
            }
        }
    }
}
