import ReferenceServer
import Testing

/// The fleet origin's ledger as pure figures: the quota windows computed from arrival times,
/// and what it makes of writes delivered again, duplicated or out of order.
@Suite("Fleet ledger")
struct FleetLedgerTests {
    @Test func noArrivalsGiveNoFigures() {
        let figures = FleetLedger.quotaFigures(arrivals: [], window: 15)
        #expect(figures.maxInWindow == 0)
        #expect(figures.minUsedPerFullWindow == 0)
        #expect(figures.fullWindows == 0)
    }

    @Test func twoEvenWindowsOfWhichTheFirstIsFull() {
        // 0, 0.25, …, 49.75 (exact in binary): 100 arrivals in [0, 25) and 100 in [25, 50).
        let arrivals = (0..<200).map { Double($0) * 0.25 }
        let figures = FleetLedger.quotaFigures(arrivals: Array(arrivals.reversed()), window: 25)
        #expect(figures.maxInWindow == 100)
        #expect(figures.minUsedPerFullWindow == 100)
        #expect(figures.fullWindows == 1, "the second window ends at 50, after the last arrival")
    }

    @Test func aWindowEndingExactlyAtTheLastArrivalIsFull() {
        let arrivals = (0..<100).map { Double($0) * 0.25 } + [25]
        let figures = FleetLedger.quotaFigures(arrivals: arrivals, window: 25)
        #expect(figures.maxInWindow == 100, "[t, t + window) is half-open")
        #expect(figures.minUsedPerFullWindow == 100)
        #expect(figures.fullWindows == 1)
    }

    @Test func anEmptyFullWindowCountsAsZero() {
        let figures = FleetLedger.quotaFigures(arrivals: [0, 1, 31], window: 10)
        #expect(figures.maxInWindow == 2)
        #expect(figures.fullWindows == 3)
        #expect(figures.minUsedPerFullWindow == 0)
    }

    @Test func aBurstWithinOneWindowIsSeenWhole() {
        let arrivals = (0..<101).map { 1_000 + Double($0) * 0.01 }
        let figures = FleetLedger.quotaFigures(arrivals: arrivals, window: 15)
        #expect(figures.maxInWindow == 101)
        #expect(figures.fullWindows == 0)
        #expect(figures.minUsedPerFullWindow == 0)
    }

    @Test func aKeySeenBeforeIsARedeliveryNotAppliedAgain() async {
        let ledger = FleetLedger()
        #expect(await ledger.record(write: 1, seq: 1, account: "a", idempotencyKey: "k1") == .applied)
        #expect(await ledger.record(write: 1, seq: 1, account: "a", idempotencyKey: "k1") == .replayed)
        let stats = await ledger.stats()
        #expect(stats.applied == 1)
        #expect(stats.redeliveries == 1)
        #expect(stats.duplicates == 0)
        #expect(stats.orderViolations == 0)
    }

    @Test func theSameWriteUnderAnotherKeyIsADuplicate() async {
        let ledger = FleetLedger()
        #expect(await ledger.record(write: 7, seq: 1, account: "a", idempotencyKey: "k1") == .applied)
        #expect(await ledger.record(write: 7, seq: 2, account: "a", idempotencyKey: "k2") == .applied)
        let stats = await ledger.stats()
        #expect(stats.applied == 2)
        #expect(stats.duplicates == 1)
        #expect(stats.redeliveries == 0)
    }

    @Test func aLowerSeqThanTheAccountsLastIsAnOrderViolation() async {
        let ledger = FleetLedger()
        _ = await ledger.record(write: 1, seq: 1, account: "a", idempotencyKey: "k1")
        _ = await ledger.record(write: 3, seq: 3, account: "a", idempotencyKey: "k3")
        _ = await ledger.record(write: 2, seq: 2, account: "a", idempotencyKey: "k2")
        _ = await ledger.record(write: 10, seq: 1, account: "b", idempotencyKey: "k10")
        _ = await ledger.record(write: 4, seq: 4, account: "a", idempotencyKey: "k4")
        let stats = await ledger.stats()
        #expect(stats.applied == 5)
        #expect(stats.orderViolations == 1, "seq 2 after 3 on account a; account b keeps its own order")
        #expect(stats.duplicates == 0)
    }

    @Test func theSharedCredentialRotatesAndCountsItsRefreshToken() async {
        let ledger = FleetLedger()
        await ledger.setup(accessToken: "a0", refreshToken: "r0", quotaWindowSeconds: 15)
        #expect(await ledger.isCurrentAccessToken("a0"))
        let pair = await ledger.refresh(presented: "r0")
        #expect(pair?.access == "fleet-access-1")
        #expect(pair?.refresh == "fleet-refresh-1")
        let again = await ledger.refresh(presented: "r0")
        #expect(again?.access == nil, "a rotated refresh token is refused")
        #expect(await ledger.isCurrentAccessToken("a0") == false)
        #expect(await ledger.isCurrentAccessToken("fleet-access-1"))
        let stats = await ledger.stats()
        #expect(stats.refreshCalls == 1)
        #expect(stats.refreshTokenUses == 2)
        await ledger.reset()
        let empty = await FleetLedger().stats()
        #expect(await ledger.stats() == empty)
    }
}
