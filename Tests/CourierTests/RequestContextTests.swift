@testable import Courier
import Testing

@Suite("Request contexts")
struct RequestContextTests {
    @Test func changingACopyLeavesTheOriginalAsItWas() {
        let original = RequestContext(requestID: "first", endpoint: "radar.get", options: RequestOptions(timeout: .seconds(5)))
        var copy = original
        copy.requestID = "second"
        copy.endpoint = "radar.list"
        copy.options.timeout = .seconds(9)
        copy.attempt = 3
        copy.userPartition = "alice"

        #expect(original.requestID == "first")
        #expect(original.endpoint == "radar.get")
        #expect(original.options.timeout == .seconds(5))
        #expect(original.attempt == 1)
        #expect(original.userPartition == nil)
        #expect(copy.requestID == "second")
        #expect(copy.endpoint == "radar.list")
        #expect(copy.options.timeout == .seconds(9))
        #expect(copy.attempt == 3)
        #expect(copy.userPartition == "alice")
    }

    @Test func copiesOfOneCallShareItsRecordButNewContextsDoNot() {
        let original = RequestContext(endpoint: "radar.get")
        var retry = original
        retry.attempt += 1
        retry.options.timeout = .seconds(1)
        retry.record.countTransportCall()

        #expect(original.record === retry.record)
        #expect(original.record.transportCallCount == 1)
        #expect(RequestContext(endpoint: "radar.get").record !== original.record)
    }

    /// The call's fields are kept by its record; an edited copy keeps its fields in a record
    /// of its own that stands in for the call's, which must still be the one that counts.
    @Test func aContextEditedTwiceStillCountsIntoTheCallsOneRecord() {
        let original = RequestContext(requestID: "first", endpoint: "radar.get")
        var edited = original
        edited.options.timeout = .seconds(3)
        var again = edited
        again.requestID = "second"
        again.endpoint = "radar.list"

        again.record.countTransportCall()
        edited.record.countTransportCall()
        again.record.noteCacheStatus(.revalidated)

        #expect(again.record === original.record && edited.record === original.record)
        #expect(original.record.transportCallCount == 2)
        #expect(original.record.cacheStatus == .revalidated)
        #expect(original.requestID == "first" && original.endpoint == "radar.get" && original.options.timeout == nil)
        #expect(edited.requestID == "first" && edited.options.timeout == .seconds(3))
        #expect(again.requestID == "second" && again.endpoint == "radar.list" && again.options.timeout == .seconds(3))
    }

    @Test func aContextOnTheSystemClockHandsItsDeadlineToTheTransport() {
        let deadline = ContinuousClock.now.advanced(by: .seconds(2))
        let context = RequestContext(endpoint: "radar.get", deadline: deadline)
        #expect(context.transportDeadline == deadline)

        var moved = context
        moved.deadline = deadline.advanced(by: .seconds(1))
        #expect(moved.transportDeadline == deadline)
        #expect(context.deadline == deadline)
    }

    @Test func timeLeftIsTheTimeoutWhenTheCallHasNoDeadline() {
        let context = RequestContext(endpoint: "radar.get", options: RequestOptions(timeout: .seconds(7)))
        #expect(context.attemptTimeLeft == .seconds(7))
        #expect(RequestContext(endpoint: "radar.get").attemptTimeLeft == nil)
    }

    @Test func timeLeftIsBoundedByTheCallsDeadline() throws {
        let soon = ContinuousClock.now.advanced(by: .seconds(2))
        let bounded = RequestContext(endpoint: "radar.get", options: RequestOptions(timeout: .seconds(30)), deadline: soon)
        let left = try #require(bounded.attemptTimeLeft)
        #expect(left <= .seconds(2) && left > .seconds(1))

        let deadlineOnly = RequestContext(endpoint: "radar.get", deadline: soon)
        #expect(try #require(deadlineOnly.attemptTimeLeft) <= .seconds(2))

        let shortTimeout = RequestContext(endpoint: "radar.get", options: RequestOptions(timeout: .milliseconds(50)), deadline: soon)
        #expect(shortTimeout.attemptTimeLeft == .milliseconds(50))
    }

    @Test func timeLeftPastTheDeadlineIsNotPositive() throws {
        let past = ContinuousClock.now.advanced(by: .seconds(-1))
        let context = RequestContext(endpoint: "radar.get", options: RequestOptions(timeout: .seconds(30)), deadline: past)
        #expect(try #require(context.attemptTimeLeft) <= .zero)
    }
}
