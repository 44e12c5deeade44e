import Courier
import HTTPTypes
import CourierAsyncHTTPClient
import Foundation
import NIOPosix
import Synchronization
import Testing

/// `AsyncHTTPClientTransport` runs an exchange that starts beside others with a task executor
/// preference for one of its event loops, so that AsyncHTTPClient's own work for the request
/// is done on the loop rather than handed to it from another thread; one alone in flight runs
/// where its caller does. The preference ends with the exchange: the chain's code after the
/// transport (middleware, the cache, decoding) must not run on an event loop, where blocking
/// work such as a disk cache's would stall every connection on it.
@Suite("AsyncHTTPClient exchanges on the engine's event loop", .timeLimit(.minutes(1)))
struct AsyncHTTPClientExecutorTests {
    @Test func codeAfterTheTransportRunsOffTheEventLoopOnEveryCall() async throws {
        let onLoop = Mutex<[Bool]>([])
        let probe = ClosureMiddleware { request, body, context, next in
            let answer = try await next(request, body, context)
            onLoop.withLock { $0.append(MultiThreadedEventLoopGroup.currentEventLoop != nil) }
            return answer
        }
        try await withReferenceServer { url in
            try await withTransport(.asyncHTTPClient) { transport in
                var configuration = ClientConfiguration(baseURL: url)
                configuration.networkMiddleware = [probe]
                let client = APIClient(configuration: configuration, transport: transport)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<16 {
                        group.addTask { _ = try await client.send(Request<Data>(path: "/debug/ping?n=\(index)")) }
                    }
                    try await group.waitForAll()
                }
                _ = try await client.send(Request<Data>(path: "/debug/ping?n=last"))
            }
        }
        // The probe can tell: on a loop's own thread it says so.
        let probedOnALoop = try await MultiThreadedEventLoopGroup.singleton.next().submit {
            MultiThreadedEventLoopGroup.currentEventLoop != nil
        }.get()
        #expect(probedOnALoop)
        let seen = onLoop.withLock { $0 }
        #expect(seen.count == 17)
        #expect(seen.allSatisfy { !$0 }, "\(seen.filter { $0 }.count) of \(seen.count) calls went on on an event loop")
    }

    /// Whether an exchange prefers a loop depends on whether others are in flight: the count
    /// the transport keeps of them must come back to zero however a call ends, or every later
    /// call would take the other way.
    @Test func theCountOfExchangesInFlightComesBackToZeroHoweverCallsEnd() async throws {
        try await withGatedServer { _, gate in
            try await gate.open()
            // A second gate, never opened: its port refuses connections.
            try await withGatedServer { _, refusing in
                try await withTransport(AsyncHTTPClientTransport()) { transport in
                    let client = APIClient(configuration: ClientConfiguration(baseURL: gate.url, retryPolicy: .none), transport: transport)
                    #expect(transport.exchangesInFlight == 0)

                    // Answered, sixteen side by side.
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for index in 0..<16 {
                            group.addTask { _ = try await client.send(Request<Data>(path: "/debug/ping?n=\(index)")) }
                        }
                        try await group.waitForAll()
                    }
                    #expect(transport.exchangesInFlight == 0)

                    // Failed: the connection is refused.
                    let refused = APIClient(configuration: ClientConfiguration(baseURL: refusing.url, retryPolicy: .none), transport: transport)
                    let failure = await courierError { _ = try await refused.send(Request<Data>(path: "/debug/ping")) }
                    #expect(failure?.code == .cannotConnect)
                    #expect(transport.exchangesInFlight == 0)

                    // Cancelled on the wire: the server answers in 10 s (the scenario, not a wait).
                    let readsBefore = gate.clientReads.count
                    let call = Task { try await client.send(Request<Data>(path: "/debug/slow?ms=10000")) }
                    #expect(await gate.clientReads.waitUntil(atLeast: readsBefore + 1), "the request reached the wire")
                    #expect(transport.exchangesInFlight == 1)
                    call.cancel()
                    let cancelled = await courierError { _ = try await call.value }
                    #expect(cancelled?.code == .cancelled)
                    #expect(transport.exchangesInFlight == 0)
                }
            }
        }
    }

    /// AsyncHTTPClient reads a streamed request body in a task of its own, which does not take
    /// the exchange's preference: a body read from disk must not be read on an event loop.
    @Test func aStreamedRequestBodyIsReadOffTheEventLoop() async throws {
        let onLoop = Mutex<[Bool]>([])
        let chunks = AsyncStream<Data> { continuation in
            for _ in 0..<4 { continuation.yield(Data(repeating: 7, count: 1_000)) }
            continuation.finish()
        }.map { chunk -> Data in
            onLoop.withLock { $0.append(MultiThreadedEventLoopGroup.currentEventLoop != nil) }
            return chunk
        }
        try await withReferenceServer { url in
            try await withTransport(.asyncHTTPClient) { transport in
                var request = HTTPRequest(method: .post, scheme: "http", authority: "\(url.host!):\(url.port!)", path: "/debug/upload")
                request.headerFields[.contentType] = "application/octet-stream"
                let body = HTTPBody(chunks, length: .known(4_000), iterationBehavior: .single)
                let (head, answer) = try await transport.send(request, body: body, context: RequestContext(endpoint: "upload"))
                #expect(head.status == .ok)
                _ = try await answer?.collect(upTo: 1 << 16)
            }
        }
        let seen = onLoop.withLock { $0 }
        #expect(seen.count == 4)
        #expect(seen.allSatisfy { !$0 })
    }
}
