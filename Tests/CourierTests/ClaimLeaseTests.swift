@testable import Courier
import Foundation
import Testing

@Suite("What a process may deliver of the groups it claimed")
struct ClaimLeaseTests {
    private let start = ContinuousClock.now

    @Test func aClaimedGroupIsHeldForTwoThirdsOfItsLease() {
        let lease = ClaimLease(groups: ["a"], claimedAt: start, duration: .seconds(30))
        #expect(lease.holds("a", at: start.advanced(by: .seconds(19))))
        #expect(!lease.holds("a", at: start.advanced(by: .seconds(21))), "the last third is left for a delivery under way")
        #expect(!lease.holds("b", at: start), "never claimed")
    }

    @Test func aRenewalExtendsTheGroupsItKeptAndDropsTheOthers() {
        let lease = ClaimLease(groups: ["a", "b"], claimedAt: start, duration: .seconds(30))
        lease.renewed(keeping: ["a", "b"], at: start.advanced(by: .seconds(15)))
        #expect(lease.holds("a", at: start.advanced(by: .seconds(34))))
        lease.renewed(keeping: ["b"], at: start.advanced(by: .seconds(25)))
        #expect(!lease.holds("a", at: start.advanced(by: .seconds(26))), "another process has it now")
        #expect(lease.holds("b", at: start.advanced(by: .seconds(44))))
        #expect(!lease.holds("b", at: start.advanced(by: .seconds(46))), "without a later renewal, the lease runs out")
    }
}
