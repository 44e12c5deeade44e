import Courier
import Foundation
import Testing

@Suite("Refresh coordination (pure)")
struct RefreshCoordinatorStateTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let margin = Duration.seconds(60)

    private func credential(_ token: String, expiresIn seconds: Double = 3_600) -> Credential {
        Credential(accessToken: token, refreshToken: "refresh-\(token)", expiresAt: now.addingTimeInterval(seconds))
    }

    @Test func aFreshCredentialIsUsedAsItIs() {
        var state = RefreshCoordinatorState(credential: credential("a"))
        #expect(state.credentialNeeded(at: now, margin: margin) == .use(credential("a")))
    }

    @Test func aCredentialAboutToExpireIsRefreshedProactivelyAndOthersJoin() {
        var state = RefreshCoordinatorState(credential: credential("a", expiresIn: 30))
        #expect(state.credentialNeeded(at: now, margin: margin) == .startRefresh(credential("a", expiresIn: 30)))
        #expect(state.isRefreshing)
        #expect(state.credentialNeeded(at: now, margin: margin) == .join)
        #expect(state.rejected(credential("a", expiresIn: 30), at: now) == .join)
        state.refreshSucceeded(credential("b"))
        #expect(!state.isRefreshing)
        #expect(state.credentialNeeded(at: now, margin: margin) == .use(credential("b")))
    }

    @Test func manyRejectionsWithTheSameCredentialStartOneRefresh() {
        var state = RefreshCoordinatorState(credential: credential("a"))
        let actions = (0..<200).map { _ in state.rejected(credential("a"), at: now) }
        #expect(actions.filter { if case .startRefresh = $0 { return true } else { return false } }.count == 1)
        #expect(actions.dropFirst().allSatisfy { $0 == .join })
    }

    @Test func aRejectionWithAnOlderCredentialReplaysWithTheCurrentOneWithoutRefreshing() {
        var state = RefreshCoordinatorState(credential: credential("a"))
        _ = state.rejected(credential("a"), at: now)
        state.refreshSucceeded(credential("b"))
        #expect(state.rejected(credential("a"), at: now) == .use(credential("b")))
    }

    @Test func aRefusedRefreshFailsEveryoneUntilSignIn() {
        var state = RefreshCoordinatorState(credential: credential("a"))
        _ = state.rejected(credential("a"), at: now)
        state.refreshFailed("refresh token revoked", isFinal: true)
        #expect(state.credentialNeeded(at: now, margin: margin) == .fail("refresh token revoked"))
        #expect(state.rejected(credential("a"), at: now) == .fail("refresh token revoked"))
        state.signedIn(credential("c"))
        #expect(state.credentialNeeded(at: now, margin: margin) == .use(credential("c")))
    }

    @Test func aPassingRefreshFailureOnlyFailsTheWaiters() {
        var state = RefreshCoordinatorState(credential: credential("a"))
        _ = state.rejected(credential("a"), at: now)
        state.refreshFailed("server unreachable", isFinal: false)
        #expect(state.credentialNeeded(at: now, margin: margin) == .use(credential("a")))
        #expect(state.rejected(credential("a"), at: now) == .startRefresh(credential("a")))
    }

    @Test func theLoopGuardStopsAFourthRefreshWithinTheWindow() {
        var state = RefreshCoordinatorState(credential: credential("t0"), maxRefreshes: 3, loopWindow: .seconds(30))
        for index in 0..<3 {
            #expect(state.rejected(credential("t\(index)"), at: now.addingTimeInterval(Double(index))) == .startRefresh(credential("t\(index)")))
            state.refreshSucceeded(credential("t\(index + 1)"))
        }
        guard case .fail(let message) = state.rejected(credential("t3"), at: now.addingTimeInterval(5)) else {
            Issue.record("expected the loop guard to stop the fourth refresh")
            return
        }
        #expect(message.contains("refresh loop"))
        #expect(state.credentialNeeded(at: now, margin: margin) == .fail(message))
    }

    @Test func refreshesOutsideTheWindowDoNotCountTowardsTheLoop() {
        var state = RefreshCoordinatorState(credential: credential("t0"), maxRefreshes: 3, loopWindow: .seconds(30))
        for index in 0..<6 {
            let at = now.addingTimeInterval(Double(index) * 20)
            #expect(state.rejected(credential("t\(index)"), at: at) == .startRefresh(credential("t\(index)")))
            state.refreshSucceeded(credential("t\(index + 1)"))
        }
    }

    @Test func withoutACredentialOrAfterSignOutRequestsFail() {
        var empty = RefreshCoordinatorState(credential: nil)
        #expect(empty.credentialNeeded(at: now, margin: margin) == .fail("not signed in"))
        var state = RefreshCoordinatorState(credential: credential("a"))
        state.signedOut()
        #expect(state.credential == nil)
        #expect(state.credentialNeeded(at: now, margin: margin) == .fail("signed out"))
    }

    @Test func aRejectedCredentialWithoutARefreshTokenFailsForGood() {
        var state = RefreshCoordinatorState(credential: Credential(accessToken: "static"))
        guard case .fail = state.rejected(Credential(accessToken: "static"), at: now) else {
            Issue.record("expected a failure")
            return
        }
    }
}
