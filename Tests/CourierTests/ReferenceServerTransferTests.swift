import Courier
import CourierAsyncHTTPClient
import Foundation
import HTTPTypes
import ReferenceServer
import Testing

/// A request for the 1,000-byte blob `fixture`, with extra header fields.
private func fixture(_ fields: HTTPFields = [:], name: String = "fixture") -> Request<Data> {
    Request(path: "/debug/blobs/\(name)", query: [URLQueryItem(name: "size", value: "1000")], headers: fields)
}

@Suite("The reference server's blobs, ranges, upload sinks and body cuts", .serialized, .timeLimit(.minutes(1)))
struct ReferenceServerTransferTests {
    @Test func aBlobCarriesValidatorsAndAcceptRanges() async throws {
        try await withClient(.asyncHTTPClient) { client, _ in
            let whole = try await client.send(fixture())
            #expect(whole.status == .ok)
            #expect(whole.value.count == 1_000)
            #expect(whole.headers[.eTag]?.hasPrefix("\"blob-") == true)
            #expect(whole.headers[.lastModified] == "Thu, 01 Jan 2026 00:00:00 GMT")
            #expect(whole.headers[.acceptRanges] == "bytes")
            #expect(try await client.value(for: fixture()) == whole.value, "the same bytes every time")
            #expect(try await client.value(for: fixture(name: "other")) != whole.value, "other names, other bytes")
        }
    }

    @Test func aSingleRangeIsAnsweredWithA206OfThoseBytes() async throws {
        try await withClient(.asyncHTTPClient) { client, _ in
            let whole = try await client.value(for: fixture())
            let middle = try await client.send(fixture([.range: "bytes=100-199"]))
            #expect(middle.status == .partialContent)
            #expect(middle.headers[.contentRange] == "bytes 100-199/1000")
            #expect(middle.value == whole[100..<200])
            let suffix = try await client.send(fixture([.range: "bytes=-10"]))
            #expect(suffix.value == whole.suffix(10))
            let open = try await client.send(fixture([.range: "bytes=990-"]))
            #expect(open.headers[.contentRange] == "bytes 990-999/1000")
        }
    }

    @Test func aRangePastTheEndIsA416WithTheLength() async throws {
        try await withClient(.asyncHTTPClient) { client, _ in
            let error = await courierError { _ = try await client.send(fixture([.range: "bytes=1000-"])) }
            #expect(error?.status?.code == 416)
            #expect(error?.headers?[.contentRange] == "bytes */1000")
        }
    }

    @Test func ifRangeServesTheRangeOnlyForTheCurrentValidator() async throws {
        try await withClient(.asyncHTTPClient) { client, _ in
            let head = try await client.send(fixture())
            let etag = try #require(head.headers[.eTag])
            let lastModified = try #require(head.headers[.lastModified])
            #expect(try await client.send(fixture([.range: "bytes=0-9", .ifRange: etag])).status == .partialContent)
            #expect(try await client.send(fixture([.range: "bytes=0-9", .ifRange: lastModified])).status == .partialContent)
            let stale = try await client.send(fixture([.range: "bytes=0-9", .ifRange: "\"old\""]))
            #expect(stale.status == .ok)
            #expect(stale.value.count == 1_000)
            #expect(try await client.send(fixture([.range: "bytes=0-9,20-29"])).status == .ok, "several ranges get the whole blob")
        }
    }

    @Test func aRevisionChangesTheBytesAndTheValidators() async throws {
        try await withRunningServer { server, url in
            try await withTransport(AsyncHTTPClientTransport()) { transport in
                let client = APIClient(baseURL: url, transport: transport)
                let before = try await client.send(fixture(name: "doc"))
                #expect(server.reviseBlob(named: "doc") == 1)
                let after = try await client.send(fixture(name: "doc"))
                #expect(after.value != before.value)
                #expect(after.headers[.eTag] != before.headers[.eTag])
                #expect(after.headers[.lastModified] == "Thu, 01 Jan 2026 00:01:00 GMT")
            }
        }
    }

    @Test func aBodyCutClosesTheConnectionMidBodyAndAppliesOnlyToLongerBodies() async throws {
        try await withRunningServer { server, url in
            try await withTransport(AsyncHTTPClientTransport()) { transport in
                let client = APIClient(configuration: ClientConfiguration(baseURL: url, retryPolicy: .none), transport: transport)
                server.bodyFaults.dropConnection(afterBodyBytes: 5_000, path: "/debug/blobs/fixture")
                #expect(try await client.value(for: fixture()).count == 1_000, "a 1,000-byte body is shorter than the cut")
                #expect(server.bodyFaults.remaining(path: "/debug/blobs/fixture") == 1)
                let big = Request<Data>(path: "/debug/blobs/fixture", query: [URLQueryItem(name: "size", value: "100000")])
                let (_, body) = try await client.stream(big)
                var received = 0
                let error = await courierError {
                    for try await chunk in body { received += chunk.count }
                }
                #expect(error?.code == .connectionLost)
                #expect(received > 0 && received <= 5_000)
                #expect(server.bodyFaults.remaining(path: "/debug/blobs/fixture") == 0)
            }
        }
    }

    @Test func aMalformedFormIsRefusedWithTheReason() async throws {
        try await withClient(.asyncHTTPClient) { client, _ in
            let unclosed = "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n"
            let error = await courierError {
                _ = try await client.send(Request<Data>(
                    method: .post, path: "/debug/multipart", body: .text(unclosed, contentType: "multipart/form-data; boundary=b")
                ))
            }
            #expect(error?.status?.code == 400)
            #expect(error?.serverMessage?.contains("not closed by a delimiter") == true)
        }
    }
}
