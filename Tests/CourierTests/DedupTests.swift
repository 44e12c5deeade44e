@testable import Courier
import CourierTesting
import Foundation
import HTTPTypes
import InMemoryTracing
import Synchronization
import Testing

/// A transport that holds every request until the test opens the gate, and counts the calls
/// that reach it and those cancelled while held. A cancelled call leaves the gate alone: the
/// others stay held.
private final class GatedTransport: Transport {
    private struct Gate {
        var isOpen = false
        var nextID = 0
        var held: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let gate = Mutex(Gate())
    /// The calls that reached the transport.
    let arrivals = EventCounter()
    /// The calls cancelled while held.
    let cancellations = EventCounter()
    let failure: CourierError?

    init(failure: CourierError? = nil) {
        self.failure = failure
    }

    func send(_ request: HTTPRequest, body: HTTPBody?, context: RequestContext) async throws -> (HTTPResponse, HTTPBody?) {
        let id = gate.withLock { gate -> Int in
            gate.nextID += 1
            return gate.nextID
        }
        arrivals.record()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = gate.withLock { gate -> Bool in
                    if gate.isOpen || Task.isCancelled { return true }
                    gate.held[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            cancellations.record()
            gate.withLock { $0.held.removeValue(forKey: id) }?.resume()
        }
        try Task.checkCancellation()
        if let failure { throw failure }
        return (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), HTTPBody(#"{"n":42}"#))
    }

    /// Lets every held call, and every later one, through.
    func release() {
        let held = gate.withLock { gate -> [CheckedContinuation<Void, Never>] in
            gate.isOpen = true
            defer { gate.held.removeAll() }
            return Array(gate.held.values)
        }
        for continuation in held { continuation.resume() }
    }

    var callCount: Int { arrivals.count }
    var cancellationCount: Int { cancellations.count }
}

extension APIClient {
    /// Waits (at most ten seconds) until at least `count` callers share calls in flight in
    /// the client's dedup stage: the callers that run a call and those that wait for it.
    /// - Returns: Whether they did.
    fileprivate func dedupWaiters(_ count: Int) async -> Bool {
        guard let calls = inFlightCalls else { return false }
        _ = await withDeadline(.seconds(10)) { await calls.waitUntilWaiting(count) }
        return calls.totalWaiterCount >= count
    }
}

@Suite("In-flight dedup", .timeLimit(.minutes(1)))
struct DedupTests {
    private struct Number: Decodable, Sendable, Equatable { var n: Int }
    let base = URL(string: "https://api.example.test")!

    @Test func aHundredConcurrentIdenticalGetsShareOneTransportCall() async throws {
        let transport = GatedTransport()
        let client = APIClient(baseURL: base, transport: transport)
        let results = try await withThrowingTaskGroup(of: Number.self) { group in
            for _ in 0..<100 { group.addTask { try await client.value(for: Request<Number>(path: "/n")) } }
            // All hundred have joined the call (one runs it, 99 wait) before it answers.
            #expect(await client.dedupWaiters(100))
            transport.release()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 100)
        #expect(results.allSatisfy { $0 == Number(n: 42) })
        #expect(transport.callCount == 1)
    }

    @Test func differentUsersOrURLsDoNotShare() async throws {
        let transport = GatedTransport()
        transport.release()
        let client = APIClient(baseURL: base, transport: transport)
        async let a = client.value(for: Request<Number>(path: "/n?page=1"))
        async let b = client.value(for: Request<Number>(path: "/n?page=2"))
        async let c = client.value(for: Request<Number>(path: "/n", headers: [.authorization: "Bearer other"]))
        _ = try await (a, b, c)
        #expect(transport.callCount == 3)
    }

    @Test func headersSetInAnotherOrderStillShareButOtherValuesDoNot() async throws {
        let transport = GatedTransport()
        let client = APIClient(baseURL: base, transport: transport)
        let first = Request<Number>(path: "/n", headers: [.accept: "application/json", .acceptLanguage: "fr"])
        let reordered = Request<Number>(path: "/n", headers: [.acceptLanguage: "fr", .accept: "application/json"])
        let otherLanguage = Request<Number>(path: "/n", headers: [.accept: "application/json", .acceptLanguage: "de"])
        async let a = client.value(for: first)
        async let b = client.value(for: reordered)
        async let c = client.value(for: otherLanguage)
        // All three have joined a call (two calls, or three if the reordered one did not share).
        #expect(await client.dedupWaiters(3))
        transport.release()
        _ = try await (a, b, c)
        #expect(transport.callCount == 2)
    }

    @Test func cancellingFollowersLeavesTheCallAndTheOtherWaitersAlone() async throws {
        let transport = GatedTransport()
        let client = APIClient(baseURL: base, transport: transport)
        let leader = Task { try await client.value(for: Request<Number>(path: "/n")) }
        #expect(await transport.arrivals.waitUntil(atLeast: 1))
        let leaving = (0..<5).map { _ in Task { try await client.value(for: Request<Number>(path: "/n")) } }
        let staying = Task { try await client.value(for: Request<Number>(path: "/n")) }
        #expect(await client.dedupWaiters(7), "the leader and six followers")
        for task in leaving { task.cancel() }
        for task in leaving {
            let error = await courierError { _ = try await task.value }
            #expect(error?.code == .cancelled)
        }
        #expect(transport.cancellationCount == 0)
        transport.release()
        #expect(try await staying.value == Number(n: 42))
        #expect(try await leader.value == Number(n: 42))
        #expect(transport.callCount == 1)
    }

    @Test func cancellingTheCallerThatStartedTheCallHandsItToTheOthers() async throws {
        let transport = GatedTransport()
        let client = APIClient(baseURL: base, transport: transport)
        let leader = Task { try await client.value(for: Request<Number>(path: "/n")) }
        #expect(await transport.arrivals.waitUntil(atLeast: 1))
        let followers = (0..<3).map { _ in Task { try await client.value(for: Request<Number>(path: "/n")) } }
        #expect(await client.dedupWaiters(4), "the leader and three followers")
        leader.cancel()
        let error = await courierError { _ = try await leader.value }
        #expect(error?.code == .cancelled)
        #expect(await transport.arrivals.waitUntil(atLeast: 2), "the call was handed to a new task")
        transport.release()
        for follower in followers { #expect(try await follower.value == Number(n: 42)) }
        #expect(transport.callCount == 2, "the leader's call was cancelled and one new call served the followers")
    }

    @Test func whenEveryWaiterLeavesTheCallIsCancelled() async throws {
        let transport = GatedTransport()
        let client = APIClient(baseURL: base, transport: transport)
        let leader = Task { try await client.value(for: Request<Number>(path: "/n")) }
        #expect(await transport.arrivals.waitUntil(atLeast: 1))
        let followers = (0..<2).map { _ in Task { try await client.value(for: Request<Number>(path: "/n")) } }
        #expect(await client.dedupWaiters(3))
        for follower in followers { follower.cancel() }
        for follower in followers { _ = await courierError { _ = try await follower.value } }
        #expect(transport.cancellationCount == 0, "the leader still waits: the call goes on")
        leader.cancel()
        let error = await courierError { _ = try await leader.value }
        #expect(error?.code == .cancelled)
        // The gate never opened, so the leader's call could only end by being cancelled.
        #expect(transport.cancellationCount == 1, "the last waiter left: the call was cancelled")
        #expect(transport.callCount == 1)
    }

    @Test func anErrorReachesEveryWaiter() async throws {
        let transport = GatedTransport(failure: CourierError(code: .connectionLost, message: "reset"))
        let client = APIClient(configuration: ClientConfiguration(baseURL: base, retryPolicy: .none), transport: transport)
        let codes = await withTaskGroup(of: CourierError.Code?.self) { group in
            for _ in 0..<10 { group.addTask { await courierError { _ = try await client.value(for: Request<Number>(path: "/n")) }?.code } }
            #expect(await client.dedupWaiters(10))
            transport.release()
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(codes.count == 10)
        #expect(codes.allSatisfy { $0 == .connectionLost })
        #expect(transport.callCount == 1)
    }
}

@Suite("In-flight dedup, as tracing sees it", .timeLimit(.minutes(1)))
struct DedupTracingTests {
    @Test func callsThatJoinAnotherHaveACallSpanWithAJoinEventAndNoAttempt() async throws {
        let transport = GatedTransport()
        let tracer = InMemoryTracer()
        var configuration = ClientConfiguration(baseURL: URL(string: "https://api.example.test")!)
        configuration.tracer = tracer
        let client = APIClient(configuration: configuration, transport: transport)
        try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<3 { group.addTask { try await client.value(for: Request<Data>(path: "/n", name: "n")) } }
            #expect(await client.dedupWaiters(3))
            transport.release()
            try await group.waitForAll()
        }
        let calls = tracer.finishedSpans.filter { $0.kind == .internal }
        #expect(calls.count == 3)
        #expect(calls.filter { $0.events.map(\.name) == ["dedup.joined"] }.count == 2)
        let attempts = tracer.finishedSpans.filter { $0.kind == .client }
        try #require(attempts.count == 1)
        #expect(calls.contains { $0.spanID == attempts[0].parentSpanID && $0.events.isEmpty }, "the leader's call sent the one request")
    }
}
