import CourierWebSocket
import Foundation
import Testing

@Suite("Server-Sent Events parser")
struct ServerSentEventParserTests {
    private func parse(_ text: String) -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        return parser.parse(Array(text.utf8))
    }

    @Test func dataLinesJoinWithLineFeedsAndAnEmptyLineDispatches() {
        let events = parse("data: first\ndata: second\n\ndata: third\n\n")
        #expect(events == [ServerSentEvent(data: "first\nsecond"), ServerSentEvent(data: "third")])
    }

    @Test func commentsAreIgnoredAndUnknownFieldsToo() {
        let events = parse(": keep-alive\nfoo: bar\ndata: x\n:another\n\n")
        #expect(events == [ServerSentEvent(data: "x")])
    }

    @Test func crlfLfAndCrAllEndLines() {
        #expect(parse("event: a\r\ndata: 1\r\n\r\n") == [ServerSentEvent(event: "a", data: "1")])
        #expect(parse("event: a\rdata: 1\r\r") == [ServerSentEvent(event: "a", data: "1")])
        #expect(parse("event: a\ndata: 1\r\n\rdata: 2\n\n") == [ServerSentEvent(event: "a", data: "1"), ServerSentEvent(data: "2")])
    }

    @Test func aCrAndItsLfInDifferentChunksEndOneLine() {
        var parser = ServerSentEventParser()
        #expect(parser.parse(Array("data: 1\r".utf8)).isEmpty)
        #expect(parser.parse(Array("\n\r".utf8)) == [ServerSentEvent(data: "1")])
        #expect(parser.parse(Array("\ndata: 2\n\n".utf8)) == [ServerSentEvent(data: "2")])
    }

    @Test func aByteOrderMarkAtTheStartIsSkippedEvenWhenSplit() {
        var parser = ServerSentEventParser()
        #expect(parser.parse([0xEF, 0xBB]).isEmpty)
        #expect(parser.parse([0xBF] + Array("data: x\n\n".utf8)) == [ServerSentEvent(data: "x")])
        // Only at the very start: a later BOM is data.
        #expect(parser.parse([0xEF, 0xBB, 0xBF] + Array("\n".utf8)).isEmpty)
        var noMark = ServerSentEventParser()
        #expect(noMark.parse([0xEF] + Array("x\n".utf8) + Array("data: y\n\n".utf8)) == [ServerSentEvent(data: "y")])
    }

    @Test func everySplitOfTheStreamGivesTheSameEvents() {
        let stream = Array("\u{FEFF}retry: 250\nid: 7\r\nevent: update\ndata: {\"a\":1}\ndata:  two\r\r: c\ndata\n\n".utf8)
        var whole = ServerSentEventParser()
        let expected = whole.parse(stream)
        #expect(expected == [
            ServerSentEvent(id: "7", event: "update", data: "{\"a\":1}\n two", retry: .milliseconds(250)),
            ServerSentEvent(id: "7", data: ""),
        ])
        for cut in 1..<stream.count {
            var parser = ServerSentEventParser()
            let events = parser.parse(stream[..<cut]) + parser.parse(stream[cut...])
            #expect(events == expected, "split at byte \(cut)")
        }
        var byteByByte = ServerSentEventParser()
        #expect(stream.flatMap { byteByByte.parse([$0]) } == expected)
    }

    @Test func idPersistsUntilChangedAnEmptyIdResetsItAndOneWithNulIsIgnored() {
        var parser = ServerSentEventParser()
        let events = parser.parse(Array("id: 1\ndata: a\n\ndata: b\n\nid: 2\u{0}x\ndata: c\n\nid\ndata: d\n\n".utf8))
        #expect(events.map(\.id) == ["1", "1", "1", nil])
        #expect(parser.lastEventID == "")
    }

    @Test func retryIsHonouredOnlyWhenAllDigits() {
        var parser = ServerSentEventParser()
        _ = parser.parse(Array("retry: 1500\n\n".utf8))
        #expect(parser.reconnectionTime == .milliseconds(1_500))
        _ = parser.parse(Array("retry: 2s\nretry: -1\nretry:\n\n".utf8))
        #expect(parser.reconnectionTime == .milliseconds(1_500))
    }

    @Test func blocksWithoutDataAreNotDispatchedAndAnUnfinishedEventIsDiscarded() {
        var parser = ServerSentEventParser()
        #expect(parser.parse(Array("event: ping\n\nid: 3\n\ndata: half".utf8)).isEmpty)
        #expect(parser.lastEventID == "3")
    }

    @Test func onlyOneSpaceAfterTheColonIsRemovedAndALineWithoutColonIsAFieldName() {
        #expect(parse("data:x\n\n") == [ServerSentEvent(data: "x")])
        #expect(parse("data:   x\n\n") == [ServerSentEvent(data: "  x")])
        #expect(parse("data\ndata\n\n") == [ServerSentEvent(data: "\n")])
    }

    @Test func aReconnectedParserStartsFromTheLastEventID() {
        var parser = ServerSentEventParser(lastEventID: "41")
        #expect(parser.parse(Array("data: x\n\n".utf8)) == [ServerSentEvent(id: "41", data: "x")])
    }
}
