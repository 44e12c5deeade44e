import ClarityAPI
import Courier
import CourierCompression
import CourierTesting
import Foundation
import HTTPTypes
import ReferenceServer
import Synchronization
import Testing

/// What `POST /debug/upload` says it received.
private struct Received: Decodable {
    let bytes: Int
    let sha256: String?
}

@Suite("Compressed request bodies", .timeLimit(.minutes(2)))
struct RequestCompressionTests {
    private static let document: Data = {
        var text = "["
        for index in 0..<5_000 { text += "{\"type\":\"steps\",\"value\":\(index % 97),\"start\":\"2026-11-25T08:00:00Z\"}," }
        return Data((text.dropLast() + "]").utf8)
    }()

    private static func compressing(_ configuration: inout ClientConfiguration) {
        configuration.requestBodyCompressor = GzipCompressor()
    }

    @Test(arguments: TransportKind.allCases)
    func aBodyInMemoryGoesGzippedAndTheServerReadsItWhole(kind: TransportKind) async throws {
        try await withClient(kind, configure: Self.compressing) { client, _ in
            var request = Request<Data>(method: .post, path: "/debug/echo", body: .data(Self.document, contentType: "application/json"))
            request.options.compressesRequestBody = true
            let response = try await client.send(request)
            #expect(response.value == Self.document, "\(kind): the server inflated what was sent")
            let wire = try #require(response.headers[HTTPField.Name("X-Echo-Header-X-Encoded-Length")!].flatMap(Int.init))
            #expect(wire > 100 && wire * 5 < Self.document.count, "\(wire) bytes on the wire for \(Self.document.count)")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aFileIsCompressedAsItIsRead(kind: TransportKind) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-gzip-upload-\(UUID().uuidString).json")
        try Self.document.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await withClient(kind, configure: Self.compressing) { client, _ in
            var request = Request<Data>(method: .post, path: "/debug/echo", body: try .file(file, contentType: "application/json", chunkSize: 16 << 10))
            request.options.compressesRequestBody = true
            let response = try await client.send(request)
            #expect(response.value == Self.document, "\(kind)")
            let wire = try #require(response.headers[HTTPField.Name("X-Echo-Header-X-Encoded-Length")!].flatMap(Int.init))
            #expect(wire > 100 && wire * 5 < Self.document.count, "\(wire) bytes on the wire")
        }
    }

    @Test func aServerThatAnswers415GetsThePlainBodyOnceAndThenOnlyPlainBodies() async throws {
        try await withRunningServer { server, url in
            try await withTransport { transport in
                var configuration = ClientConfiguration(baseURL: url)
                Self.compressing(&configuration)
                let client = APIClient(configuration: configuration, transport: transport)
                // `/debug/upload` does not take compressed bodies.
                var request = Request<Received>(method: .post, path: "/debug/upload", body: .data(Self.document, contentType: "application/json"))
                request.options.compressesRequestBody = true
                let first = try await client.send(request)
                #expect(first.value.bytes == Self.document.count)
                #expect(await server.requestCount(method: "POST", path: "/debug/upload") == 2, "refused compressed, then accepted plain")
                let second = try await client.send(request)
                #expect(second.value.bytes == Self.document.count)
                #expect(await server.requestCount(method: "POST", path: "/debug/upload") == 3, "the origin is remembered: no second refusal")
            }
        }
    }

    @Test func aBodyThatCannotBeSentTwiceKeepsThe415() async throws {
        try await withClient(.asyncHTTPClient, configure: Self.compressing) { client, _ in
            let chunks = AsyncStream<Data> { continuation in
                continuation.yield(Self.document)
                continuation.finish()
            }
            var request = Request<Data>(method: .post, path: "/debug/upload", body: .stream(HTTPBody(chunks), contentType: "application/json"))
            request.options.compressesRequestBody = true
            let error = await courierError { _ = try await client.send(request) }
            #expect(error?.status?.code == 415)
        }
    }

    @Test func theServerRefusesACutGzipBodyAndInflatesNothingBeforeTheAccessCheck() async throws {
        try await withClient(.asyncHTTPClient) { client, _ in
            let whole = try #require(GzipCompressor().compress(HTTPBody(Self.document)).bufferedData)
            var cut = Request<Data>(method: .post, path: "/debug/echo", body: .data(whole.dropLast(6), contentType: "application/json"))
            cut.headers[.contentEncoding] = "gzip"
            let error = await courierError { _ = try await client.send(cut) }
            #expect(error?.status?.code == 400, "\(String(describing: error))")
            var trailing = Request<Data>(method: .post, path: "/debug/echo", body: .data(whole + Data("junk".utf8), contentType: "application/json"))
            trailing.headers[.contentEncoding] = "gzip"
            #expect(await courierError { _ = try await client.send(trailing) }?.status?.code == 400)

            var anonymous = Request<Data>(method: .post, path: "/api/v1/health-data/", body: .data(whole, contentType: "application/json"))
            anonymous.headers[.contentEncoding] = "gzip"
            anonymous.options.requiresAuth = false
            #expect(await courierError { _ = try await client.send(anonymous) }?.status?.code == 401)
        }
    }

    @Test func withoutACompressorTheFlagChangesNothing() async throws {
        try await withClient(.asyncHTTPClient) { client, _ in
            var request = Request<Received>(method: .post, path: "/debug/upload", body: .data(Self.document, contentType: "application/json"))
            request.options.compressesRequestBody = true
            let received = try await client.send(request)
            #expect(received.value.bytes == Self.document.count)
        }
    }

    @Test func clarityUploadsGoCompressedWhenTheClientHasACompressor() async throws {
        try await withRunningServer { _, url in
            try await withTransport { transport in
                let sent = SentHeaders()
                let clarity = ClarityClient(baseURL: url, transport: transport) { configuration in
                    Self.compressing(&configuration)
                    configuration.networkMiddleware = [sent]
                }
                let demo = ReferenceServerConfiguration()
                let me = try await clarity.signIn(email: demo.demoEmail, password: demo.demoPassword)
                let metrics = (0..<500).map { HealthMetric(biometricData: .init(heartRate: Double(60 + $0 % 30)), metricType: "heart_rate") }
                _ = try await clarity.submitHealthData(HealthDataUpload(clientTimestamp: Date(), metrics: metrics, uploadSource: "apple_health", userId: me.userId))
                #expect(sent.encodings.last == "gzip", "the upload went out gzipped: \(sent.encodings)")
                let page = try await clarity.healthData(limit: 100)
                #expect(page.items.count == 100, "and the server stored what it inflated")
                #expect(page.pagination.totalCount == 500)
            }
        }
    }
}

/// Network middleware that keeps the `Content-Encoding` of each request with a body.
private final class SentHeaders: Middleware, Sendable {
    private let values = Mutex<[String?]>([])
    var encodings: [String?] { values.withLock { $0 } }

    func intercept(_ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: Next) async throws -> (HTTPResponse, HTTPBody?) {
        if body != nil { values.withLock { $0.append(request.headerFields[.contentEncoding]) } }
        return try await next(request, body, context)
    }
}
