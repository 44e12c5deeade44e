import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// Appends a name to a shared log when it runs, before and after `next`.
private struct Tracer: Middleware {
    let name: String
    let trace: Trace

    func intercept(_ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: Next) async throws -> (HTTPResponse, HTTPBody?) {
        trace.append("\(name)>")
        let result = try await next(request, body, context)
        trace.append("<\(name)")
        return result
    }
}

/// A list of strings shared by middleware in one test; a `Mutex` makes it `Sendable`.
private final class Trace: Sendable {
    private let entries = Mutex<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

@Suite("The middleware chain")
struct MiddlewareChainTests {
    let base = URL(string: "https://example.test")!

    @Test func applicationMiddlewareWrapsNetworkMiddlewareWhichWrapsTheTransport() async throws {
        let trace = Trace()
        let transport = MockTransport { _, _ in
            trace.append("transport")
            return .json(#"{"ok":true}"#)
        }
        let configuration = ClientConfiguration(
            baseURL: base,
            middleware: [Tracer(name: "app1", trace: trace), Tracer(name: "app2", trace: trace)],
            networkMiddleware: [Tracer(name: "net1", trace: trace), Tracer(name: "net2", trace: trace)]
        )
        let client = APIClient(configuration: configuration, transport: transport)
        _ = try await client.send(Request<Data>(path: "/x"))
        #expect(trace.all == ["app1>", "app2>", "net1>", "net2>", "transport", "<net2", "<net1", "<app2", "<app1"])
    }

    @Test func applicationMiddlewareMayShortCircuitWithoutReachingTheTransport() async throws {
        let transport = MockTransport(always: .status(.internalServerError))
        let cached = ClosureMiddleware { _, _, _, _ in
            (HTTPResponse(status: .ok), HTTPBody(#"{"ok":true}"#))
        }
        let client = APIClient(configuration: ClientConfiguration(baseURL: base, middleware: [cached]), transport: transport)
        let text = try await client.value(for: Request<String>(path: "/x"))
        #expect(text == #"{"ok":true}"#)
        #expect(transport.requests.isEmpty)
    }

    @Test func applicationMiddlewareMayCallNextTwice() async throws {
        let transport = MockTransport(always: .status(.noContent))
        let twice = ClosureMiddleware { request, body, context, next in
            _ = try await next(request, body, context)
            return try await next(request, body, context)
        }
        let client = APIClient(configuration: ClientConfiguration(baseURL: base, middleware: [twice]), transport: transport)
        try await client.send(Request<Void>(path: "/x"))
        #expect(transport.requests.count == 2)
    }

    @Test func networkMiddlewareThatCallsNextTwiceIsRejected() async throws {
        let transport = MockTransport(always: .status(.noContent))
        let twice = ClosureMiddleware { request, body, context, next in
            _ = try await next(request, body, context)
            return try await next(request, body, context)
        }
        let client = APIClient(configuration: ClientConfiguration(baseURL: base, networkMiddleware: [twice]), transport: transport)
        let error = await courierError { try await client.send(Request<Void>(path: "/x")) }
        #expect(error?.code == .invalidRequest)
        #expect(error?.message.contains("more than once") == true)
        #expect(transport.requests.count == 1)
    }

    @Test func networkMiddlewareThatNeverCallsNextIsRejected() async throws {
        let transport = MockTransport(always: .status(.noContent))
        let skipper = ClosureMiddleware { _, _, _, _ in (HTTPResponse(status: .ok), nil) }
        let client = APIClient(configuration: ClientConfiguration(baseURL: base, networkMiddleware: [skipper]), transport: transport)
        let error = await courierError { try await client.send(Request<Void>(path: "/x")) }
        #expect(error?.code == .invalidRequest)
        #expect(error?.message.contains("without calling next") == true)
        #expect(transport.requests.isEmpty)
    }

    @Test func middlewareThatPassesEveryCallOnIsLeftOutOfTheChainAndTheRestStillRun() async throws {
        /// Counts its calls, and says whether it passes every call on as it is told.
        final class Counting: Middleware {
            let calls = Mutex(0)
            let passesEveryCallOn: Bool
            init(passesEveryCallOn: Bool) { self.passesEveryCallOn = passesEveryCallOn }
            func intercept(_ request: HTTPRequest, body: HTTPBody?, context: RequestContext, next: Next) async throws -> (HTTPResponse, HTTPBody?) {
                calls.withLock { $0 += 1 }
                return try await next(request, body, context)
            }
        }
        let skipped = Counting(passesEveryCallOn: true), application = Counting(passesEveryCallOn: false)
        let network = Counting(passesEveryCallOn: false), skippedNetwork = Counting(passesEveryCallOn: true)
        let transport = MockTransport(always: .status(.noContent))
        let client = APIClient(
            configuration: ClientConfiguration(
                baseURL: base,
                middleware: [skipped, application],
                networkMiddleware: [skippedNetwork, network]
            ),
            transport: transport
        )
        try await client.send(Request<Void>(path: "/x"))
        try await client.send(Request<Void>(path: "/y"))
        #expect(skipped.calls.withLock { $0 } == 0)
        #expect(skippedNetwork.calls.withLock { $0 } == 0)
        #expect(application.calls.withLock { $0 } == 2)
        #expect(network.calls.withLock { $0 } == 2)
        #expect(transport.requests.count == 2)
    }

    @Test func defaultHeadersAreAddedUnlessTheRequestSetsThem() async throws {
        let transport = MockTransport(always: .status(.noContent))
        let client = APIClient(baseURL: base, transport: transport)
        try await client.send(Request<Void>(path: "/x", headers: [.accept: "text/csv"]))
        let sent = try #require(transport.requests.first).request
        #expect(sent.headerFields[.accept] == "text/csv")
        #expect(sent.headerFields[.userAgent] == DefaultHeadersMiddleware.defaultUserAgent)
        #expect(sent.headerFields[.requestID]?.count == 15)
    }

    @Test func leadingDefaultHeadersAreInPlaceWhenTheNextMiddlewareRuns() async throws {
        let seen = Mutex<(HTTPFields, String)?>(nil)
        let look = ClosureMiddleware { request, body, context, next in
            seen.withLock { $0 = (request.headerFields, context.requestID) }
            return try await next(request, body, context)
        }
        let transport = MockTransport(always: .status(.noContent))
        let client = APIClient(
            configuration: ClientConfiguration(baseURL: base, middleware: [DefaultHeadersMiddleware(accept: "text/csv"), look]),
            transport: transport
        )
        try await client.send(Request<Void>(path: "/x", headers: [.userAgent: "Mine/2"]))
        let (fields, requestID) = try #require(seen.withLock { $0 })
        #expect(fields[.accept] == "text/csv")
        #expect(fields[.userAgent] == "Mine/2")
        #expect(fields[.requestID] == requestID)
        #expect(fields.count == 3)
        #expect(try #require(transport.requests.first).request.headerFields == fields)
    }

    @Test func defaultHeadersAfterAnotherMiddlewareAreAddedAfterItRuns() async throws {
        let seen = Mutex<HTTPFields?>(nil)
        let look = ClosureMiddleware { request, body, context, next in
            seen.withLock { $0 = request.headerFields }
            return try await next(request, body, context)
        }
        let transport = MockTransport(always: .status(.noContent))
        let client = APIClient(
            configuration: ClientConfiguration(baseURL: base, middleware: [look, DefaultHeadersMiddleware()]),
            transport: transport
        )
        try await client.send(Request<Void>(path: "/x"))
        #expect(try #require(seen.withLock { $0 }).isEmpty)
        let sent = try #require(transport.requests.first).request
        #expect(sent.headerFields[.accept] == "application/json")
        #expect(sent.headerFields[.requestID]?.count == 15)
    }

    @Test func requestIDsAreFifteenLowercaseBase32CharactersAndDoNotRepeat() {
        let ids = (0..<10_000).map { _ in RequestContext.makeRequestID() }
        #expect(Set(ids).count == ids.count)
        let alphabet = Set("0123456789abcdefghijklmnopqrstuv")
        #expect(ids.allSatisfy { $0.count == 15 && $0.allSatisfy(alphabet.contains) })
        // The first two characters are the process's prefix; the rest vary from id to id.
        #expect(Set(ids.map { $0.prefix(2) }).count == 1)
        #expect(Set(ids.map { $0.dropFirst(2).prefix(1) }).count > 1)
    }

    @Test func jsonBodyIsEncodedWithContentTypeAndIdempotencyKeyIsSent() async throws {
        struct Note: Codable, Sendable, Equatable { var text: String; var at: Date }
        let transport = MockTransport(always: .status(.noContent))
        let client = APIClient(baseURL: base, transport: transport)
        let note = Note(text: "hi", at: Date(timeIntervalSince1970: 1_700_000_000.25))
        var request = Request<Void>(method: .post, path: "/notes", body: .json(note))
        request.options.idempotencyKey = "key-1"
        try await client.send(request)
        let sent = try #require(transport.requests.first)
        #expect(sent.request.headerFields[.contentType] == "application/json")
        #expect(sent.request.headerFields[.idempotencyKey] == "key-1")
        let text = String(decoding: try #require(sent.body), as: UTF8.self)
        #expect(text.contains("2023-11-14T22:13:20.250Z"))
        #expect(try sent.decodedBody(as: Note.self, decoder: JSONCoding.makeDecoder()) == note)
    }

    @Test func responseMetricsCountAttemptsAndBytes() async throws {
        let transport = MockTransport(always: .json(#"{"ok":true}"#))
        let client = APIClient(baseURL: base, transport: transport)
        let response = try await client.send(Request<Data>(method: .post, path: "/x", body: .text("abc")))
        #expect(response.metrics.attempts == 1)
        #expect(response.metrics.bytesSent == 3)
        #expect(response.metrics.bytesReceived == 11)
        #expect(response.metrics.duration > .zero)
    }
}
