import Courier
import Foundation
import HTTPTypes
import Testing

@Suite("Transports: round trips against the reference server")
struct TransportRoundTripTests {
    private struct Payload: Codable, Sendable, Equatable { var name: String; var count: Int }
    private struct QueryMirror: Decodable { var raw: String; var items: [[String]] }

    @Test(arguments: TransportKind.allCases)
    func getDecodesJSON(kind: TransportKind) async throws {
        struct Ping: Decodable { var ok: Bool }
        try await withClient(kind) { client, _ in
            let response = try await client.send(Request<Ping>(path: "/debug/ping"))
            #expect(response.value.ok)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func postPutAndDeleteSendJSONAndReadItBack(kind: TransportKind) async throws {
        try await withClient(kind) { client, _ in
            for method in [HTTPRequest.Method.post, .put, .delete] {
                let payload = Payload(name: "courier \(method.rawValue)", count: 3)
                let response = try await client.send(Request<Payload>(method: method, path: "/debug/echo", body: .json(payload)))
                #expect(response.value == payload)
                #expect(response.headers[HTTPField.Name("X-Echo-Length")!] == "\(response.data.count)")
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func noContentIsAnEmptySuccess(kind: TransportKind) async throws {
        try await withClient(kind) { client, _ in
            let response = try await client.send(Request<Void>(path: "/debug/no-content"))
            #expect(response.status == .noContent)
            #expect(response.data.isEmpty)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func queryItemsArriveExactlyAsGiven(kind: TransportKind) async throws {
        try await withClient(kind) { client, _ in
            let request = Request<QueryMirror>(
                path: "/debug/query?fixed=1",
                query: [URLQueryItem(name: "q", value: "a b&c=d+é"), URLQueryItem(name: "empty", value: "")]
            )
            let mirror = try await client.value(for: request)
            #expect(mirror.raw == "fixed=1&q=a%20b%26c%3Dd%2B%C3%A9&empty=")
            #expect(mirror.items == [["fixed", "1"], ["q", "a b&c=d+é"], ["empty", ""]])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func customAndDefaultHeadersReachTheServer(kind: TransportKind) async throws {
        try await withClient(kind) { client, _ in
            let request = Request<[String: String]>(path: "/debug/headers", headers: [HTTPField.Name("X-Custom")!: "hello"])
            let headers = try await client.value(for: request)
            #expect(headers["x-custom"] == "hello")
            #expect(headers["accept"] == "application/json")
            #expect(headers["user-agent"] == DefaultHeadersMiddleware.defaultUserAgent)
            #expect(headers["x-request-id"]?.count == 15)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func fiveMebibyteDownloadStreamsEveryByte(kind: TransportKind) async throws {
        let count = 5 << 20
        try await withClient(kind) { client, _ in
            let (response, body) = try await client.stream(Request<Data>(path: "/debug/bytes?count=\(count)"))
            #expect(response.headerFields[.contentLength] == "\(count)")
            var received = 0
            var chunks = 0
            var mismatchedChunks = 0
            for try await chunk in body {
                if !GeneratedBytes.match(chunk, at: received) { mismatchedChunks += 1 }
                received += chunk.count
                chunks += 1
            }
            #expect(received == count)
            #expect(mismatchedChunks == 0)
            if kind == .asyncHTTPClient { #expect(chunks > 1, "AsyncHTTPClient hands the body over in pieces") }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func fiveMebibyteStreamedUploadArrivesWhole(kind: TransportKind) async throws {
        let chunkSize = 64 << 10
        let chunkCount = 80
        let chunks = AsyncStream<Data> { continuation in
            for index in 0..<chunkCount { continuation.yield(Data(repeating: UInt8(index), count: chunkSize)) }
            continuation.finish()
        }
        let body = HTTPBody(chunks, length: .known(Int64(chunkSize * chunkCount)))
        try await withClient(kind, configure: { $0.maxResponseBytes = 8 << 20 }) { client, _ in
            let response = try await client.send(Request<Data>(method: .post, path: "/debug/echo", body: .stream(body)))
            #expect(response.data.count == chunkSize * chunkCount)
            #expect(response.headers[HTTPField.Name("X-Echo-Length")!] == "\(chunkSize * chunkCount)")
            #expect(response.data[chunkSize * 79] == 79)
        }
    }
}
