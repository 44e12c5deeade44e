import Courier
@testable import CourierWebSocket
import Testing

@Suite("WebSocket lifecycle (pure state machine)")
struct WebSocketLifecycleTests {
    private var random = SeededGenerator(seed: 7)
    private let noJitter = ReconnectPolicy(backoff: Backoff(.exponential(base: .milliseconds(100), multiplier: 2), maxDelay: .seconds(1), jitter: .none))

    private mutating func drive(_ lifecycle: inout WebSocketLifecycle, _ events: [WebSocketLifecycle.Event]) -> [WebSocketLifecycle.Action] {
        events.map { lifecycle.handle($0, using: &random) }
    }

    @Test mutating func firstConnectOpensAndIsNotAReconnect() {
        var lifecycle = WebSocketLifecycle(policy: noJitter, canRenewCredential: false)
        #expect(lifecycle.state == .idle)
        let actions = drive(&lifecycle, [.connectRequested, .opened])
        #expect(actions == [.connect, .opened(isReconnect: false)])
        #expect(lifecycle.state == .connected)
        #expect(lifecycle.openings == 1)
    }

    @Test mutating func aDropWaitsTheBackoffThenReconnectsAndTheNextOpenIsAReconnect() {
        var lifecycle = WebSocketLifecycle(policy: noJitter, canRenewCredential: false)
        _ = drive(&lifecycle, [.connectRequested, .opened])
        let afterDrop = lifecycle.handle(.lost(reason: "reset"), using: &random)
        #expect(afterDrop == .wait(attempt: 1, delay: .milliseconds(100)))
        #expect(lifecycle.state == .reconnecting(attempt: 1, delay: .milliseconds(100)))
        let actions = drive(&lifecycle, [.delayElapsed, .opened])
        #expect(actions == [.connect, .opened(isReconnect: true)])
        #expect(lifecycle.failures == 0)
    }

    @Test mutating func failedAttemptsInARowGrowTheDelayExponentiallyUpToTheCap() {
        var lifecycle = WebSocketLifecycle(policy: noJitter, canRenewCredential: false)
        _ = drive(&lifecycle, [.connectRequested, .opened, .lost(reason: "reset")])
        var delays: [Duration] = []
        for _ in 0..<5 {
            _ = lifecycle.handle(.delayElapsed, using: &random)
            if case .wait(_, let delay) = lifecycle.handle(.attemptFailed(reason: "refused"), using: &random) { delays.append(delay) }
        }
        #expect(delays == [.milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1), .seconds(1)])
    }

    @Test mutating func jitteredDelaysStayWithinTheBackoff() {
        var lifecycle = WebSocketLifecycle(policy: ReconnectPolicy(backoff: .exponential(base: .milliseconds(100))), canRenewCredential: false)
        _ = drive(&lifecycle, [.connectRequested, .opened])
        guard case .wait(_, let delay) = lifecycle.handle(.lost(reason: "reset"), using: &random) else {
            Issue.record("expected a wait")
            return
        }
        #expect(delay >= .zero && delay <= .milliseconds(100))
    }

    @Test mutating func givesUpWith1006AfterTheMaximumAttempts() {
        var policy = noJitter
        policy.maxReconnectAttempts = 2
        var lifecycle = WebSocketLifecycle(policy: policy, canRenewCredential: false)
        let actions = drive(&lifecycle, [
            .connectRequested, .attemptFailed(reason: "refused"), .delayElapsed, .attemptFailed(reason: "refused"),
            .delayElapsed, .attemptFailed(reason: "refused"),
        ])
        #expect(actions.last == .finish(code: .abnormalClosure, reason: "gave up after 2 reconnect attempts: refused"))
        #expect(lifecycle.state.isClosed)
    }

    @Test mutating func aNormalCloseFromTheServerIsFinal() {
        var lifecycle = WebSocketLifecycle(policy: noJitter, canRenewCredential: false)
        let actions = drive(&lifecycle, [.connectRequested, .opened, .closedByServer(code: .normalClosure, reason: "bye")])
        #expect(actions.last == .finish(code: .normalClosure, reason: "bye"))
        #expect(lifecycle.state == .closed(code: .normalClosure, reason: "bye"))
    }

    @Test mutating func anApplicationCodeMarkedFinalStopsReconnectsButOthersDoNot() {
        var policy = noJitter
        policy.finalCloseCodes = [WebSocketCloseCode(4001)]
        var final = WebSocketLifecycle(policy: policy, canRenewCredential: false)
        #expect(drive(&final, [.connectRequested, .opened, .closedByServer(code: WebSocketCloseCode(4001), reason: "banned")]).last
            == .finish(code: WebSocketCloseCode(4001), reason: "banned"))
        var passing = WebSocketLifecycle(policy: policy, canRenewCredential: false)
        #expect(drive(&passing, [.connectRequested, .opened, .closedByServer(code: WebSocketCloseCode(4002), reason: "later")]).last
            == .wait(attempt: 1, delay: .milliseconds(100)))
        var goingAway = WebSocketLifecycle(policy: policy, canRenewCredential: false)
        #expect(drive(&goingAway, [.connectRequested, .opened, .closedByServer(code: .goingAway, reason: "restart")]).last
            == .wait(attempt: 1, delay: .milliseconds(100)))
    }

    @Test mutating func closingWhileConnectedSendsACloseAndEndsWithTheAppsCodeOnceTheServerAnswers() {
        var lifecycle = WebSocketLifecycle(policy: noJitter, canRenewCredential: false)
        let actions = drive(&lifecycle, [
            .connectRequested, .opened, .closeRequested(code: .normalClosure, reason: "done"),
            .closedByServer(code: .normalClosure, reason: ""),
        ])
        #expect(actions[2] == .sendClose(code: .normalClosure, reason: "done"))
        #expect(actions[3] == .finish(code: .normalClosure, reason: "done"))
    }

    @Test mutating func closingDuringAReconnectWaitFinishesAtOnceAndLaterEventsAreIgnored() {
        var lifecycle = WebSocketLifecycle(policy: noJitter, canRenewCredential: false)
        let actions = drive(&lifecycle, [
            .connectRequested, .opened, .lost(reason: "reset"), .closeRequested(code: .normalClosure, reason: ""),
            .delayElapsed, .opened,
        ])
        #expect(actions[3] == .finish(code: .normalClosure, reason: ""))
        #expect(actions[4] == .none)
        #expect(actions[5] == .none)
    }

    @Test mutating func aFailureAnotherAttemptCannotMendClosesAtOnceWithItsCodeWhateverThePolicy() {
        // Unlimited reconnects, and a streak already under way: still no wait, no retry.
        var lifecycle = WebSocketLifecycle(policy: noJitter, canRenewCredential: false)
        let actions = drive(&lifecycle, [
            .connectRequested, .opened, .lost(reason: "reset"), .delayElapsed,
            .attemptFailedForGood(code: .tlsHandshakeFailure, reason: "public key pin mismatch"),
            .delayElapsed,
        ])
        #expect(actions[4] == .finish(code: .tlsHandshakeFailure, reason: "public key pin mismatch"))
        #expect(actions[5] == .none)
        #expect(lifecycle.state == .closed(code: .tlsHandshakeFailure, reason: "public key pin mismatch"))
    }

    @Test mutating func cancellationClosesWithGoingAway() {
        var lifecycle = WebSocketLifecycle(policy: noJitter, canRenewCredential: false)
        #expect(drive(&lifecycle, [.connectRequested, .opened, .cancelled]).last == .finish(code: .goingAway, reason: "cancelled"))
    }

    @Test mutating func aRefusedCredentialIsRenewedOnceThenTheHandshakeIsRetriedWithoutWaiting() {
        var lifecycle = WebSocketLifecycle(policy: noJitter, canRenewCredential: true)
        let actions = drive(&lifecycle, [.connectRequested, .credentialRejected, .credentialRenewed, .opened])
        #expect(actions == [.connect, .renewCredential, .connect, .opened(isReconnect: false)])
        #expect(lifecycle.state == .connected)
    }

    @Test mutating func aRenewedCredentialRefusedAgainClosesWith1008() {
        var lifecycle = WebSocketLifecycle(policy: noJitter, canRenewCredential: true)
        let actions = drive(&lifecycle, [.connectRequested, .credentialRejected, .credentialRenewed, .credentialRejected])
        #expect(actions.last == .finish(code: .policyViolation, reason: "the server refused the renewed credential"))
    }

    @Test mutating func aRefusedCredentialWithoutASessionOrAFailedRenewalClosesWith1008() {
        var unsigned = WebSocketLifecycle(policy: noJitter, canRenewCredential: false)
        #expect(drive(&unsigned, [.connectRequested, .credentialRejected]).last
            == .finish(code: .policyViolation, reason: "the server refused the credential"))
        var failing = WebSocketLifecycle(policy: noJitter, canRenewCredential: true)
        #expect(drive(&failing, [.connectRequested, .credentialRejected, .credentialRenewalFailed(reason: "refresh refused")]).last
            == .finish(code: .policyViolation, reason: "refresh refused"))
    }

    @Test func reconnectPolicyFromARetryPolicyKeepsItsBackoffAndAttempts() {
        let policy = ReconnectPolicy(retryPolicy: .aggressive)
        #expect(policy.backoff == RetryPolicy.aggressive.backoff)
        #expect(policy.maxReconnectAttempts == 5)
        #expect(ReconnectPolicy.never.maxReconnectAttempts == 0)
        #expect(policy.isFinal(.normalClosure))
        #expect(!policy.isFinal(.goingAway))
    }
}
