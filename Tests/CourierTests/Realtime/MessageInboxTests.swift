@testable import CourierWebSocket
import Foundation
import Testing

@Suite("WebSocket inbox (bounded by count and bytes)")
struct MessageInboxTests {
    /// An inbox of strings weighed by their UTF-8 length.
    private func makeInbox(capacity: Int = 100, maxBytes: Int, dropsOldest: Bool) -> MessageInbox<String> {
        MessageInbox(capacity: capacity, maxBytes: maxBytes, dropsOldest: dropsOldest, byteCount: { $0.utf8.count })
    }

    /// Reads everything left once the inbox is finished.
    private func drain(_ inbox: MessageInbox<String>) async -> [String] {
        inbox.finish()
        var messages: [String] = []
        while let message = await inbox.next() { messages.append(message) }
        return messages
    }

    @Test func whenDroppingTheOldestGoUntilTheNewMessageFitsTheByteLimit() async {
        let inbox = makeInbox(maxBytes: 10, dropsOldest: true)
        #expect(inbox.offer("aaaa") == .taken)
        #expect(inbox.offer("bbbb") == .taken)
        #expect(inbox.bufferedBytes == 8)
        // 8 + 4 > 10: "aaaa" goes.
        #expect(inbox.offer("cccc") == .taken)
        #expect(inbox.bufferedBytes == 8)
        #expect(inbox.dropped == 1)
        // 9 bytes: only an empty buffer has room, so both go.
        #expect(inbox.offer("ddddddddd") == .taken)
        #expect(inbox.dropped == 3)
        #expect(inbox.bufferedBytes == 9)
        #expect(await drain(inbox) == ["ddddddddd"])
    }

    @Test func whenSuspendingAMessageOverTheByteLimitMakesTheProducerWaitThoughTheCountHasRoom() async {
        let inbox = makeInbox(capacity: 100, maxBytes: 10, dropsOldest: false)
        #expect(inbox.offer("aaaa") == .taken)
        #expect(inbox.offer("bbbb") == .taken)
        #expect(inbox.offer("cccc") == .full)
        #expect(inbox.bufferedCount == 2)
        #expect(inbox.bufferedBytes == 8)
        #expect(inbox.dropped == 0)
        // A read makes room for it.
        #expect(await inbox.next() == "aaaa")
        #expect(inbox.offer("cccc") == .taken)
        #expect(inbox.bufferedBytes == 8)
        #expect(await drain(inbox) == ["bbbb", "cccc"])
    }

    @Test func aWaitingPushGoesThroughOnceTheConsumerReadsAndNothingIsLost() async {
        let inbox = makeInbox(capacity: 100, maxBytes: 10, dropsOldest: false)
        await inbox.push("aaaa")
        await inbox.push("bbbb")
        // Full by bytes: these pushes wait for reads, in order.
        let producer = Task {
            for message in ["cccc", "dddd", "eeee"] { await inbox.push(message) }
        }
        var received: [String] = []
        var mostBytes = 0
        while received.count < 5, let message = await inbox.next() {
            received.append(message)
            mostBytes = max(mostBytes, inbox.bufferedBytes)
        }
        await producer.value
        #expect(received == ["aaaa", "bbbb", "cccc", "dddd", "eeee"])
        #expect(mostBytes <= 10)
        #expect(inbox.dropped == 0)
        inbox.finish()
    }

    @Test func anEmptyInboxTakesAMessageLargerThanTheByteLimitSoItIsNeverStuck() async {
        let inbox = makeInbox(maxBytes: 4, dropsOldest: false)
        #expect(inbox.offer("a message of 21 bytes") == .taken)
        #expect(inbox.bufferedBytes == 21)
        #expect(inbox.offer("x") == .full)
        #expect(await drain(inbox) == ["a message of 21 bytes"])
    }

    @Test func theCountLimitStillAppliesWithRoomInBytes() async {
        let inbox = makeInbox(capacity: 2, maxBytes: 1 << 20, dropsOldest: false)
        #expect(inbox.offer("a") == .taken)
        #expect(inbox.offer("b") == .taken)
        #expect(inbox.offer("c") == .full)
        #expect(await drain(inbox) == ["a", "b"])
    }

    @Test func aFinishedInboxDiscardsAndReleasesAWaitingProducer() async {
        let inbox = makeInbox(maxBytes: 4, dropsOldest: false)
        await inbox.push("aaaa")
        #expect(inbox.offer("bbbb") == .full)
        let producer = Task { await inbox.push("bbbb") }
        inbox.finish()
        await producer.value
        #expect(inbox.offer("cccc") == .finished)
        #expect(await inbox.next() == "aaaa")
        #expect(await inbox.next() == nil)
    }

    @Test func theConnectionWeighsMessagesByTheirBytes() async {
        let configuration = WebSocketConfiguration(url: URL(string: "ws://127.0.0.1:1/ws")!, incomingMaxBytes: 3)
        let connection = WebSocketConnection(configuration: configuration)
        #expect(configuration.incomingMaxBytes == 3)
        #expect(connection.inbox.maxBytes == 3)
        #expect(connection.inbox.offer(.text("é")) == .taken)  // 2 bytes of UTF-8
        #expect(connection.inbox.offer(.binary(Data([1, 2]))) == .full)
        #expect(connection.inbox.bufferedBytes == 2)
        await connection.close()
    }
}
