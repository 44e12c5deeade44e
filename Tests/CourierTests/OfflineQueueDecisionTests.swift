import Courier
import Foundation
import Testing

@Suite("Offline queue decisions")
struct QueueDecisionTests {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func next(_ outcome: QueueDecision.Outcome, attempts: Int = 1, max: Int = 5) -> QueueDecision.Step {
        QueueDecision.next(after: outcome, attempts: attempts, maxAttempts: max, delay: .seconds(4), now: now)
    }

    @Test func successAndRedirectsAreDelivered() {
        #expect(next(.answered(status: 201)) == .delivered)
        #expect(next(.answered(status: 204)) == .delivered)
        #expect(next(.answered(status: 303)) == .delivered)
    }

    @Test func aClientErrorOtherThan401Or408Or409Or429IsDeadLetteredAtOnce() {
        for status in [400, 403, 404, 410, 422] {
            guard case .deadLetter(let reason) = next(.answered(status: status)) else {
                Issue.record("\(status) was not dead-lettered")
                continue
            }
            #expect(reason.contains("\(status)"))
        }
    }

    @Test func serverErrorsTimeoutsAndUnreachableServersBackOff() {
        let later = now.addingTimeInterval(4)
        #expect(next(.answered(status: 408)) == .retry(at: later))
        #expect(next(.answered(status: 429)) == .retry(at: later))
        #expect(next(.answered(status: 409)) == .retry(at: later), "the same key may still be in flight")
        #expect(next(.answered(status: 503)) == .retry(at: later))
        #expect(next(.failed(.cannotConnect)) == .retry(at: later))
        #expect(next(.failed(.connectionLost)) == .retry(at: later))
        #expect(next(.failed(.timedOut)) == .retry(at: later))
    }

    @Test func theLastAllowedAttemptDeadLettersInsteadOfDeleting() {
        #expect(next(.answered(status: 503), attempts: 4) == .retry(at: now.addingTimeInterval(4)))
        guard case .deadLetter(let reason) = next(.answered(status: 503), attempts: 5) else {
            Issue.record("the fifth failure was not dead-lettered")
            return
        }
        #expect(reason.contains("5 attempts"))
    }

    @Test func aRequestForSignInWaitsForACredentialWhateverTheAttemptCount() {
        #expect(next(.answered(status: 401)) == .waitForSignIn)
        #expect(next(.answered(status: 401), attempts: 5) == .waitForSignIn)
        #expect(next(.failed(.unauthorized)) == .waitForSignIn)
    }

    @Test func aConflictIsDeadLetteredOnlyAfterTheLastAttempt() {
        guard case .deadLetter = next(.answered(status: 409), attempts: 5) else {
            Issue.record("a 409 on the last attempt was kept")
            return
        }
    }

    @Test func cancellationRetriesAtOnceAndAnUnsendableRequestIsDeadLettered() {
        #expect(next(.failed(.cancelled), attempts: 5) == .retry(at: now))
        if case .deadLetter = next(.failed(.invalidRequest)) {} else { Issue.record("an invalid request was kept") }
    }
}

@Suite("Connectivity state")
struct ConnectivityStateTests {
    @Test func passiveFailuresAndSuccessesMoveTheStatusAndTheProbe() {
        var state = ConnectivityState()
        #expect(state.apply(.requestSucceeded) == .none)
        #expect(state.apply(.requestUnreachable) == .startProbing)
        #expect(state.status == .offline)
        #expect(state.apply(.requestUnreachable) == .none)
        #expect(state.apply(.probeFailed) == .none)
        #expect(state.status == .offline)
        #expect(state.apply(.probeSucceeded) == .stopProbing)
        #expect(state.status == .online)
    }

    @Test func aPathMonitorOutranksASingleRefusedConnection() {
        var state = ConnectivityState()
        #expect(state.apply(.pathChanged(.constrained)) == .none)
        #expect(state.status == .constrained)
        #expect(state.apply(.requestUnreachable) == .none, "the server refused; the network is fine")
        #expect(state.status == .constrained)
        #expect(state.apply(.pathChanged(.offline)) == .startProbing)
        #expect(state.apply(.requestSucceeded) == .stopProbing, "a server answered after all")
        #expect(state.status == .online)
    }

    @Test func theMonitorPublishesChangesAndWaitsForConnectivity() async {
        let monitor = ConnectivityMonitor(initial: .offline)
        var updates = monitor.updates().makeAsyncIterator()
        #expect(await updates.next() == .offline)
        let waiter = Task { await monitor.waitUntilReachable(limit: .seconds(30)) }
        monitor.report(.requestSucceeded)
        #expect(await updates.next() == .online)
        #expect(await waiter.value)
        monitor.report(.requestUnreachable)
        #expect(await updates.next() == .offline)
        #expect(await monitor.waitUntilReachable(limit: .milliseconds(20)) == false)
    }
}
