import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// A transport that holds every request until the test opens the gate, and counts calls and
/// cancellations.
private final class GatedTransport: Transport {
    private let gate = Mutex<[CheckedContinuation<Void, Never>]>([])
    private let open = Mutex(false)
    let calls = Atomic<Int>(0)
    let cancellations = Atomic<Int>(0)
    let failure: CourierError?

    init(failure: CourierError? = nil) {
        self.failure = failure
    }

    func send(_ request: HTTPRequest, body: HTTPBody?, context: RequestContext) async throws -> (HTTPResponse, HTTPBody?) {
        calls.add(1, ordering: .relaxed)
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = open.withLock { $0 } || Task.isCancelled
                if resumeNow { continuation.resume() } else { gate.withLock { $0.append(continuation) } }
            }
        } onCancel: {
            cancellations.add(1, ordering: .relaxed)
            self.release()
        }
        try Task.checkCancellation()
        if let failure { throw failure }
        return (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), HTTPBody(#"{"n":42}"#))
    }

    func release() {
        open.withLock { $0 = true }
        for continuation in gate.withLock({ state in defer { state.removeAll() }; return state }) { continuation.resume() }
    }

    var callCount: Int { calls.load(ordering: .relaxed) }
}

@Suite("In-flight dedup")
struct DedupTests {
    private struct Number: Decodable, Sendable, Equatable { var n: Int }
    let base = URL(string: "https://api.example.test")!

    private func waitUntil(_ condition: () -> Bool) async {
        for _ in 0..<2_000 where !condition() { try? await Task.sleep(for: .milliseconds(1)) }
    }

    @Test func aHundredConcurrentIdenticalGetsShareOneTransportCall() async throws {
        let transport = GatedTransport()
        let client = APIClient(baseURL: base, transport: transport)
        let results = try await withThrowingTaskGroup(of: Number.self) { group in
            for _ in 0..<100 { group.addTask { try await client.value(for: Request<Number>(path: "/n")) } }
            await waitUntil { transport.callCount == 1 }
            try await Task.sleep(for: .milliseconds(50))
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
        await waitUntil { transport.callCount == 2 }
        try await Task.sleep(for: .milliseconds(50))
        transport.release()
        _ = try await (a, b, c)
        #expect(transport.callCount == 2)
    }

    @Test func cancellingFollowersLeavesTheCallAndTheOtherWaitersAlone() async throws {
        let transport = GatedTransport()
        let client = APIClient(baseURL: base, transport: transport)
        let leader = Task { try await client.value(for: Request<Number>(path: "/n")) }
        await waitUntil { transport.callCount == 1 }
        let leaving = (0..<5).map { _ in Task { try await client.value(for: Request<Number>(path: "/n")) } }
        let staying = Task { try await client.value(for: Request<Number>(path: "/n")) }
        try await Task.sleep(for: .milliseconds(50))
        for task in leaving { task.cancel() }
        for task in leaving {
            let error = await courierError { _ = try await task.value }
            #expect(error?.code == .cancelled)
        }
        #expect(transport.cancellations.load(ordering: .relaxed) == 0)
        transport.release()
        #expect(try await staying.value == Number(n: 42))
        #expect(try await leader.value == Number(n: 42))
        #expect(transport.callCount == 1)
    }

    @Test func cancellingTheCallerThatStartedTheCallHandsItToTheOthers() async throws {
        let transport = GatedTransport()
        let client = APIClient(baseURL: base, transport: transport)
        let leader = Task { try await client.value(for: Request<Number>(path: "/n")) }
        await waitUntil { transport.callCount == 1 }
        let followers = (0..<3).map { _ in Task { try await client.value(for: Request<Number>(path: "/n")) } }
        try await Task.sleep(for: .milliseconds(50))
        leader.cancel()
        let error = await courierError { _ = try await leader.value }
        #expect(error?.code == .cancelled)
        await waitUntil { transport.callCount == 2 }
        transport.release()
        for follower in followers { #expect(try await follower.value == Number(n: 42)) }
        #expect(transport.callCount == 2, "the leader's call was cancelled and one new call served the followers")
    }

    @Test func whenEveryWaiterLeavesTheCallIsCancelled() async throws {
        let transport = GatedTransport()
        let client = APIClient(baseURL: base, transport: transport)
        let tasks = (0..<3).map { _ in Task { try await client.value(for: Request<Number>(path: "/n")) } }
        await waitUntil { transport.callCount == 1 }
        try await Task.sleep(for: .milliseconds(50))
        for task in tasks { task.cancel() }
        for task in tasks { _ = await courierError { _ = try await task.value } }
        await waitUntil { transport.cancellations.load(ordering: .relaxed) == 1 }
        #expect(transport.cancellations.load(ordering: .relaxed) == 1)
    }

    @Test func anErrorReachesEveryWaiter() async throws {
        let transport = GatedTransport(failure: CourierError(code: .connectionLost, message: "reset"))
        let client = APIClient(configuration: ClientConfiguration(baseURL: base, retryPolicy: .none), transport: transport)
        let codes = await withTaskGroup(of: CourierError.Code?.self) { group in
            for _ in 0..<10 { group.addTask { await courierError { _ = try await client.value(for: Request<Number>(path: "/n")) }?.code } }
            await waitUntil { transport.callCount == 1 }
            try? await Task.sleep(for: .milliseconds(50))
            transport.release()
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(codes.count == 10)
        #expect(codes.allSatisfy { $0 == .connectionLost })
        #expect(transport.callCount == 1)
    }
}
