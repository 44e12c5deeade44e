import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@Suite("The retry stage, on a scripted transport")
struct RetryStageTests {
    let base = URL(string: "https://api.example.test")!

    private func client(_ transport: MockTransport, clock: ManualClock, policy: RetryPolicy = .default, budget: RetryBudget.Configuration = .unlimited) -> APIClient {
        APIClient(
            configuration: ClientConfiguration(baseURL: base, retryPolicy: policy, retryBudget: budget, clock: clock),
            transport: transport
        )
    }

    @Test func aBurstOf503IsRiddenOut() async throws {
        let clock = ManualClock()
        let transport = MockTransport(sequence: [.success(.status(.serviceUnavailable)), .success(.status(.serviceUnavailable)), .success(.json(#"{"ok":true}"#))])
        let response = try await client(transport, clock: clock).send(Request<Data>(path: "/x"))
        #expect(response.status == .ok)
        #expect(response.metrics.attempts == 3)
        #expect(transport.requests.map(\.attempt) == [1, 2, 3])
        #expect(clock.sleeps.count == 2)
        #expect(clock.sleeps.allSatisfy { $0 <= .seconds(30) })
    }

    @Test func postWithoutAKeyIsSentOnceAndWithAKeyIsRetriedWithTheSameKey() async throws {
        let clock = ManualClock()
        let failing = MockTransport(always: .status(.serviceUnavailable))
        let error = await courierError { _ = try await client(failing, clock: clock).send(Request<Data>(method: .post, path: "/orders", body: .text("x"))) }
        #expect(error?.code == .serverError)
        #expect(failing.requests.count == 1)

        let flaky = MockTransport(sequence: [.success(.status(.badGateway)), .success(.status(.created))])
        var keyed = Request<Data>(method: .post, path: "/orders", body: .text("x"))
        keyed.options.idempotencyKey = "order-123"
        _ = try await client(flaky, clock: clock).send(keyed)
        #expect(flaky.requests.count == 2)
        #expect(flaky.requests.map { $0.request.headerFields[.idempotencyKey] } == ["order-123", "order-123"])
        #expect(flaky.requests.map(\.body) == [Data("x".utf8), Data("x".utf8)])
    }

    @Test func aSingleUseBodyIsNotResent() async throws {
        let transport = MockTransport(always: .status(.serviceUnavailable))
        let stream = HTTPBody(AsyncStream<Data> { $0.yield(Data("once".utf8)); $0.finish() })
        let error = await courierError { _ = try await client(transport, clock: ManualClock()).send(Request<Data>(method: .put, path: "/x", body: .stream(stream))) }
        #expect(transport.requests.count == 1)
        #expect(error?.code == .serverError)
    }

    @Test func retryAfterIsWaitedExactly() async throws {
        let clock = ManualClock()
        let transport = MockTransport(sequence: [.success(MockResponse(status: .tooManyRequests, headers: [.retryAfter: "3"])), .success(.status(.noContent))])
        try await client(transport, clock: clock).send(Request<Void>(path: "/x"))
        #expect(clock.sleeps == [.seconds(3)])
    }

    @Test func retryAfterBeyondTheCapEndsWithTheRateLimitError() async throws {
        let transport = MockTransport(always: MockResponse(status: .tooManyRequests, headers: [.retryAfter: "3600"]))
        let error = await courierError { _ = try await client(transport, clock: ManualClock()).send(Request<Data>(path: "/x")) }
        #expect(transport.requests.count == 1)
        #expect(error?.code == .rateLimited)
        #expect(error?.retryAfter == .seconds(3600))
        #expect(error?.retryStopReason == .retryAfterTooLong(.seconds(3600)))
    }

    @Test func theBudgetStopsAStormAndTheErrorSaysSo() async throws {
        let transport = MockTransport(always: .status(.serviceUnavailable))
        let client = client(transport, clock: ManualClock(), policy: .aggressive, budget: .init(ratio: 0.1, minimumRetries: 2))
        var errors: [CourierError] = []
        for _ in 0..<10 {
            if let error = await courierError({ _ = try await client.send(Request<Data>(path: "/x")) }) { errors.append(error) }
        }
        // 10 first attempts, retries limited to max(2, 10% of 10) = 2.
        #expect(transport.requests.count == 12)
        #expect(errors.count == 10)
        #expect(errors.last?.retryStopReason == .budgetExhausted)
        #expect(errors.last?.message.contains("retry budget is spent") == true)
    }

    @Test func theDeadlineStopsRetrying() async throws {
        let clock = ManualClock()
        let transport = MockTransport(always: .status(.serviceUnavailable))
        var request = Request<Data>(path: "/x")
        request.options.deadline = .seconds(2)
        request.options.retryPolicy = RetryPolicy(maxAttempts: 10, backoff: Backoff(.constant(.milliseconds(900)), jitter: .none))
        let error = await courierError { _ = try await client(transport, clock: clock).send(request) }
        #expect(transport.requests.count == 3, "attempts at 0, 0.9 and 1.8 s; the next would end past 2 s")
        #expect(error?.retryStopReason == .deadlineWouldPass)
    }

    @Test func cancellingDuringAWaitStopsAtOnce() async throws {
        let clock = ManualClock(mode: .suspending)
        let transport = MockTransport(always: .status(.serviceUnavailable))
        let client = client(transport, clock: clock)
        let call = Task { try await client.send(Request<Data>(path: "/x")) }
        #expect(await clock.waitForPendingSleeps(1))
        call.cancel()
        let error = await courierError { _ = try await call.value }
        #expect(error?.code == .cancelled)
        #expect(transport.requests.count == 1)
    }

    @Test func perRequestPolicyOverridesTheClients() async throws {
        let transport = MockTransport(always: .status(.serviceUnavailable))
        var request = Request<Data>(path: "/x")
        request.options.retryPolicy = RetryPolicy.none
        _ = await courierError { _ = try await client(transport, clock: ManualClock()).send(request) }
        #expect(transport.requests.count == 1)
    }
}
