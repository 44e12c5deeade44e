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

    @Test func aContextOnTheSystemClockHandsItsDeadlineToTheTransport() {
        let deadline = ContinuousClock.now.advanced(by: .seconds(2))
        let context = RequestContext(endpoint: "radar.get", deadline: deadline)
        #expect(context.transportDeadline == deadline)

        var moved = context
        moved.deadline = deadline.advanced(by: .seconds(1))
        #expect(moved.transportDeadline == deadline)
        #expect(context.deadline == deadline)
    }
}
