import Courier
import Foundation
import HTTPTypes
import Testing

@Suite("Retry decisions (pure)")
struct RetryPolicyTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    var generator = SeededGenerator(seed: 7)

    private func plain(_ attempts: Int = 3) -> RetryPolicy {
        RetryPolicy(maxAttempts: attempts, backoff: Backoff(.exponential(base: .milliseconds(100), multiplier: 2), maxDelay: .seconds(1), jitter: .none))
    }

    @Test mutating func aFailureTheServerNeverProcessedIsRetriedForEveryMethodAndAnyOtherOnlyWhenSafe() {
        for method in [HTTPRequest.Method.post, .patch, .get] {
            let unprocessed = RetryAttempt(failure: .cannotConnect, neverProcessed: true, method: method, attempt: 1)
            #expect(plain().decide(unprocessed, now: now, timeLeft: nil, using: &generator) == .retry(after: .milliseconds(100)), "\(method)")
        }
        // The same failure that may have reached the server: a POST without a key stops.
        let maybe = RetryAttempt(failure: .connectionLost, method: .post, attempt: 1)
        #expect(plain().decide(maybe, now: now, timeLeft: nil, using: &generator) == .stop(.notIdempotent))
        // Never processed does not make a failure retryable that the policy does not retry,
        // nor send a single-use body twice, nor pass the attempts or the deadline.
        let tls = RetryAttempt(failure: .tlsFailure, neverProcessed: true, method: .post, attempt: 1)
        #expect(plain().decide(tls, now: now, timeLeft: nil, using: &generator) == .stop(.notRetryable))
        let stream = RetryAttempt(failure: .connectionLost, neverProcessed: true, method: .post, bodyIsReplayable: false, attempt: 1)
        #expect(plain().decide(stream, now: now, timeLeft: nil, using: &generator) == .stop(.bodyNotReplayable))
        let last = RetryAttempt(failure: .cannotConnect, neverProcessed: true, method: .post, attempt: 3)
        #expect(plain().decide(last, now: now, timeLeft: nil, using: &generator) == .stop(.attemptsExhausted), "a connection never made grants no extra attempt")
        let late = RetryAttempt(failure: .cannotConnect, neverProcessed: true, method: .post, attempt: 1)
        #expect(plain().decide(late, now: now, timeLeft: .milliseconds(50), using: &generator) == .stop(.deadlineWouldPass))
        // A response arrived: the flag says nothing about it.
        let answered = RetryAttempt(status: .serviceUnavailable, neverProcessed: true, method: .post, attempt: 1)
        #expect(plain().decide(answered, now: now, timeLeft: nil, using: &generator) == .stop(.notIdempotent))
    }

    @Test mutating func theFirstConnectionLostBeforeTheAnswerGoesAgainAtOnceWithOneMoreAttemptWhenSafe() {
        // A GET whose stream a draining server dropped: at once, the first time.
        var drained = RetryAttempt(failure: .connectionLost, method: .get, attempt: 1)
        drained.failedBeforeResponse = true
        drained.lossesBeforeResponse = 1
        #expect(drained.isLossBeforeResponse)
        #expect(plain().decide(drained, now: now, timeLeft: nil, using: &generator) == .retry(after: .zero))
        // The second such loss backs off, and the extra attempt is one, not more.
        var again = drained
        again.attempt = 2
        again.lossesBeforeResponse = 2
        #expect(plain().decide(again, now: now, timeLeft: nil, using: &generator) == .retry(after: .milliseconds(200)))
        var third = again
        third.attempt = 3
        #expect(plain().decide(third, now: now, timeLeft: nil, using: &generator) == .retry(after: .milliseconds(400)), "the one extra attempt")
        third.attempt = 4
        #expect(plain().decide(third, now: now, timeLeft: nil, using: &generator) == .stop(.attemptsExhausted))
        // A POST without a key lost before its answer is not known to be unprocessed: it stops.
        var post = drained
        post.method = .post
        #expect(plain().decide(post, now: now, timeLeft: nil, using: &generator) == .stop(.notIdempotent))
        // A refused stream is never processed: a POST goes again at once.
        var refused = RetryAttempt(failure: .connectionLost, neverProcessed: true, method: .post, attempt: 1)
        refused.lossesBeforeResponse = 1
        #expect(plain().decide(refused, now: now, timeLeft: nil, using: &generator) == .retry(after: .zero))
        // A connection lost while the body was read is an ordinary failure.
        let midBody = RetryAttempt(failure: .connectionLost, method: .get, attempt: 1)
        #expect(!midBody.isLossBeforeResponse)
        #expect(plain().decide(midBody, now: now, timeLeft: nil, using: &generator) == .retry(after: .milliseconds(100)))
    }

    @Test func exponentialBackoffDoublesUpToTheCap() {
        let backoff = Backoff(.exponential(base: .milliseconds(100), multiplier: 2), maxDelay: .seconds(1), jitter: .none)
        let delays = (1...6).map { backoff.baseDelay(afterFailedAttempts: $0) }
        #expect(delays == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1), .seconds(1)])
        #expect(backoff.baseDelay(afterFailedAttempts: 500) == .seconds(1))
    }

    @Test func constantAndLinearBackoff() {
        #expect(Backoff(.constant(.milliseconds(300)), jitter: .none).baseDelay(afterFailedAttempts: 4) == .milliseconds(300))
        let linear = Backoff(.linear(initial: .milliseconds(100), increment: .milliseconds(50)), jitter: .none)
        #expect((1...3).map { linear.baseDelay(afterFailedAttempts: $0) } == [.milliseconds(100), .milliseconds(150), .milliseconds(200)])
        #expect(Backoff.none.baseDelay(afterFailedAttempts: 3) == .zero)
    }

    @Test mutating func fullJitterStaysBetweenZeroAndTheDelayAndVaries() {
        let backoff = Backoff(.constant(.seconds(1)), jitter: .full)
        let draws = (0..<200).map { _ in backoff.delay(afterFailedAttempts: 1, using: &generator) }
        #expect(draws.allSatisfy { $0 >= .zero && $0 <= .seconds(1) })
        #expect(Set(draws).count > 150)
        #expect(draws.contains { $0 < .milliseconds(250) } && draws.contains { $0 > .milliseconds(750) })
        let equal = Backoff(.constant(.seconds(1)), jitter: .equal)
        #expect((0..<100).allSatisfy { _ in equal.delay(afterFailedAttempts: 1, using: &generator) >= .milliseconds(500) })
    }

    @Test mutating func retryableStatusOnAGetIsRetriedWithBackoff() {
        let decision = plain().decide(RetryAttempt(status: .serviceUnavailable, method: .get, attempt: 1), now: now, timeLeft: nil, using: &generator)
        #expect(decision == .retry(after: .milliseconds(100)))
        let second = plain().decide(RetryAttempt(status: .badGateway, method: .get, attempt: 2), now: now, timeLeft: nil, using: &generator)
        #expect(second == .retry(after: .milliseconds(200)))
    }

    @Test(arguments: [200, 201, 204, 400, 401, 403, 404, 409, 422, 501])
    mutating func otherStatusesAreNotRetried(status: Int) {
        let decision = plain().decide(RetryAttempt(status: .init(code: status), method: .get, attempt: 1), now: now, timeLeft: nil, using: &generator)
        #expect(decision == .stop(.notRetryable))
    }

    @Test mutating func transportFailuresAreRetriedButNotCancellationOrTLS() {
        for code in [CourierError.Code.cannotConnect, .connectionLost, .timedOut] {
            #expect(plain().decide(RetryAttempt(failure: code, method: .get, attempt: 1), now: now, timeLeft: nil, using: &generator) == .retry(after: .milliseconds(100)))
        }
        for code in [CourierError.Code.cancelled, .transportFailed, .invalidRequest, .decodingFailed] {
            #expect(plain().decide(RetryAttempt(failure: code, method: .get, attempt: 1), now: now, timeLeft: nil, using: &generator) == .stop(.notRetryable))
        }
    }

    @Test mutating func postAndPatchNeedAnIdempotencyKey() {
        for method in [HTTPRequest.Method.post, .patch] {
            let bare = plain().decide(RetryAttempt(status: .serviceUnavailable, method: method, attempt: 1), now: now, timeLeft: nil, using: &generator)
            #expect(bare == .stop(.notIdempotent))
            let keyed = plain().decide(RetryAttempt(status: .serviceUnavailable, method: method, hasIdempotencyKey: true, attempt: 1), now: now, timeLeft: nil, using: &generator)
            #expect(keyed == .retry(after: .milliseconds(100)))
        }
        for method in [HTTPRequest.Method.put, .delete, .head, .options] {
            #expect(plain().decide(RetryAttempt(status: .serviceUnavailable, method: method, attempt: 1), now: now, timeLeft: nil, using: &generator) != .stop(.notIdempotent))
        }
    }

    @Test mutating func singleUseBodyIsNeverResent() {
        let decision = plain().decide(RetryAttempt(status: .serviceUnavailable, method: .put, bodyIsReplayable: false, attempt: 1), now: now, timeLeft: nil, using: &generator)
        #expect(decision == .stop(.bodyNotReplayable))
    }

    @Test mutating func attemptsRunOut() {
        let decision = plain(3).decide(RetryAttempt(status: .serviceUnavailable, method: .get, attempt: 3), now: now, timeLeft: nil, using: &generator)
        #expect(decision == .stop(.attemptsExhausted))
        #expect(RetryPolicy.none.decide(RetryAttempt(status: .serviceUnavailable, method: .get, attempt: 1), now: now, timeLeft: nil, using: &generator) == .stop(.attemptsExhausted))
    }

    @Test mutating func retryAfterSetsTheWaitOn429And503UpToTheCap() {
        let seconds = plain().decide(RetryAttempt(status: .tooManyRequests, retryAfter: "1", method: .get, attempt: 1), now: now, timeLeft: nil, using: &generator)
        #expect(seconds == .retry(after: .seconds(1)))
        let date = HTTPDate.format(now.addingTimeInterval(1))
        let dated = plain().decide(RetryAttempt(status: .serviceUnavailable, retryAfter: date, method: .get, attempt: 1), now: now, timeLeft: nil, using: &generator)
        #expect(dated == .retry(after: .seconds(1)))
        let tooLong = plain().decide(RetryAttempt(status: .tooManyRequests, retryAfter: "120", method: .get, attempt: 1), now: now, timeLeft: nil, using: &generator)
        #expect(tooLong == .stop(.retryAfterTooLong(.seconds(120))))
        let ignoredOn500 = plain().decide(RetryAttempt(status: .internalServerError, retryAfter: "120", method: .get, attempt: 1), now: now, timeLeft: nil, using: &generator)
        #expect(ignoredOn500 == .retry(after: .milliseconds(100)))
    }

    @Test mutating func theDeadlineStopsAWaitThatWouldPassIt() {
        let decision = plain().decide(RetryAttempt(status: .serviceUnavailable, method: .get, attempt: 1), now: now, timeLeft: .milliseconds(50), using: &generator)
        #expect(decision == .stop(.deadlineWouldPass))
        let spent = plain().decide(RetryAttempt(failure: .timedOut, method: .get, attempt: 1), now: now, timeLeft: .milliseconds(-5), using: &generator)
        #expect(spent == .stop(.deadlineWouldPass))
    }
}

@Suite("The retry budget (pure)")
struct RetryBudgetStateTests {
    @Test func theFloorAllowsAFewRetriesOnAQuietClient() {
        var state = RetryBudget.State(configuration: .init(ratio: 0.2, minimumRetries: 3, window: .seconds(10)))
        state.recordRequest(at: .zero)
        let allowed = (0..<5).map { _ in state.tryRetry(at: .milliseconds(10)) }
        #expect(allowed == [true, true, true, false, false])
    }

    @Test func retriesAddAtMostTheRatioOfRecentRequests() {
        var state = RetryBudget.State(configuration: .init(ratio: 0.2, minimumRetries: 0, window: .seconds(10)))
        for _ in 0..<100 { state.recordRequest(at: .seconds(1)) }
        let granted = (0..<50).filter { _ in state.tryRetry(at: .seconds(2)) }.count
        #expect(granted == 20)
    }

    @Test func theWindowSlidesSoOldTrafficStopsCounting() {
        var state = RetryBudget.State(configuration: .init(ratio: 0.5, minimumRetries: 0, window: .seconds(10)))
        for _ in 0..<10 { state.recordRequest(at: .zero) }
        #expect((0..<10).filter { _ in state.tryRetry(at: .seconds(1)) }.count == 5)
        let allowedWithNothingRecent = state.tryRetry(at: .seconds(15))
        #expect(!allowedWithNothingRecent, "nothing recent: no budget")
        for _ in 0..<4 { state.recordRequest(at: .seconds(15)) }
        #expect((0..<10).filter { _ in state.tryRetry(at: .seconds(15)) }.count == 2)
    }

    @Test func aShortWindowCountsTrafficUntilItsLastBucketEnds() {
        var insideWindow = RetryBudget.State(configuration: .init(ratio: 1, minimumRetries: 0, window: .milliseconds(100)))
        for _ in 0..<2 { insideWindow.recordRequest(at: .microseconds(500)) }
        let grantedInside = (0..<5).filter { _ in insideWindow.tryRetry(at: .milliseconds(95)) }.count
        #expect(grantedInside == 2)

        var pastWindow = RetryBudget.State(configuration: .init(ratio: 1, minimumRetries: 0, window: .milliseconds(100)))
        for _ in 0..<2 { pastWindow.recordRequest(at: .microseconds(500)) }
        let grantedPast = pastWindow.tryRetry(at: .milliseconds(105))
        #expect(!grantedPast, "the requests' bucket has left the window")
    }
}
