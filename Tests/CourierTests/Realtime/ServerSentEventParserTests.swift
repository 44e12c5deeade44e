import Courier
import CourierWebSocket
import Foundation
import Testing

@Suite("Server-Sent Events parser")
struct ServerSentEventParserTests {
    private func parse(_ text: String) throws -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        return try parser.parse(Array(text.utf8))
    }

    /// The ``CourierError`` feeding `text` to `parser` threw, or `nil` when it threw none.
    private func failure(feeding text: String, to parser: inout ServerSentEventParser) -> CourierError? {
        do throws(CourierError) {
            _ = try parser.parse(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func dataLinesJoinWithLineFeedsAndAnEmptyLineDispatches() throws {
        let events = try parse("data: first\ndata: second\n\ndata: third\n\n")
        #expect(events == [ServerSentEvent(data: "first\nsecond"), ServerSentEvent(data: "third")])
    }

    @Test func commentsAreIgnoredAndUnknownFieldsToo() throws {
        let events = try parse(": keep-alive\nfoo: bar\ndata: x\n:another\n\n")
        #expect(events == [ServerSentEvent(data: "x")])
    }

    @Test func crlfLfAndCrAllEndLines() throws {
        #expect(try parse("event: a\r\ndata: 1\r\n\r\n") == [ServerSentEvent(event: "a", data: "1")])
        #expect(try parse("event: a\rdata: 1\r\r") == [ServerSentEvent(event: "a", data: "1")])
        #expect(try parse("event: a\ndata: 1\r\n\rdata: 2\n\n") == [ServerSentEvent(event: "a", data: "1"), ServerSentEvent(data: "2")])
    }

    @Test func aCrAndItsLfInDifferentChunksEndOneLine() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.parse(Array("data: 1\r".utf8)).isEmpty)
        #expect(try parser.parse(Array("\n\r".utf8)) == [ServerSentEvent(data: "1")])
        #expect(try parser.parse(Array("\ndata: 2\n\n".utf8)) == [ServerSentEvent(data: "2")])
    }

    @Test func aByteOrderMarkAtTheStartIsSkippedEvenWhenSplit() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.parse([0xEF, 0xBB]).isEmpty)
        #expect(try parser.parse([0xBF] + Array("data: x\n\n".utf8)) == [ServerSentEvent(data: "x")])
        // Only at the very start: a later BOM is data.
        #expect(try parser.parse([0xEF, 0xBB, 0xBF] + Array("\n".utf8)).isEmpty)
        var noMark = ServerSentEventParser()
        #expect(try noMark.parse([0xEF] + Array("x\n".utf8) + Array("data: y\n\n".utf8)) == [ServerSentEvent(data: "y")])
    }

    @Test func everySplitOfTheStreamGivesTheSameEvents() throws {
        let stream = Array("\u{FEFF}retry: 250\nid: 7\r\nevent: update\ndata: {\"a\":1}\ndata:  two\r\r: c\ndata\n\n".utf8)
        var whole = ServerSentEventParser()
        let expected = try whole.parse(stream)
        #expect(expected == [
            ServerSentEvent(id: "7", event: "update", data: "{\"a\":1}\n two", retry: .milliseconds(250)),
            ServerSentEvent(id: "7", data: ""),
        ])
        for cut in 1..<stream.count {
            var parser = ServerSentEventParser()
            let first = try parser.parse(stream[..<cut])
            let second = try parser.parse(stream[cut...])
            #expect(first + second == expected, "split at byte \(cut)")
        }
        var byteByByte = ServerSentEventParser()
        #expect(try stream.flatMap { try byteByByte.parse([$0]) } == expected)
    }

    @Test func idPersistsUntilChangedAnEmptyIdResetsItAndOneWithNulIsIgnored() throws {
        var parser = ServerSentEventParser()
        let events = try parser.parse(Array("id: 1\ndata: a\n\ndata: b\n\nid: 2\u{0}x\ndata: c\n\nid\ndata: d\n\n".utf8))
        #expect(events.map(\.id) == ["1", "1", "1", nil])
        #expect(parser.lastEventID == "")
    }

    @Test func retryIsHonouredOnlyWhenAllDigits() throws {
        var parser = ServerSentEventParser()
        _ = try parser.parse(Array("retry: 1500\n\n".utf8))
        #expect(parser.reconnectionTime == .milliseconds(1_500))
        _ = try parser.parse(Array("retry: 2s\nretry: -1\nretry:\n\n".utf8))
        #expect(parser.reconnectionTime == .milliseconds(1_500))
    }

    @Test func blocksWithoutDataAreNotDispatchedAndAnUnfinishedEventIsDiscarded() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.parse(Array("event: ping\n\nid: 3\n\ndata: half".utf8)).isEmpty)
        #expect(parser.lastEventID == "3")
    }

    @Test func onlyOneSpaceAfterTheColonIsRemovedAndALineWithoutColonIsAFieldName() throws {
        #expect(try parse("data:x\n\n") == [ServerSentEvent(data: "x")])
        #expect(try parse("data:   x\n\n") == [ServerSentEvent(data: "  x")])
        #expect(try parse("data\ndata\n\n") == [ServerSentEvent(data: "\n")])
    }

    @Test func aReconnectedParserStartsFromTheLastEventID() throws {
        var parser = ServerSentEventParser(lastEventID: "41")
        #expect(try parser.parse(Array("data: x\n\n".utf8)) == [ServerSentEvent(id: "41", data: "x")])
    }

    // MARK: - Limits

    @Test func aLineAtTheLimitPassesAndOneByteMoreEndsTheStreamAsTooLarge() throws {
        let limits = ServerSentEventLimits(maxLineBytes: 16)
        var atLimit = ServerSentEventParser(limits: limits)
        // "data: " is 6 bytes: 10 more make a 16-byte line.
        #expect(try atLimit.parse(Array("data: 0123456789\n\n".utf8)) == [ServerSentEvent(data: "0123456789")])

        var over = ServerSentEventParser(limits: limits)
        #expect(try over.parse(Array("data: 01234".utf8)).isEmpty)
        let accepted = failure(feeding: "56789", to: &over)
        #expect(accepted == nil)
        let error = failure(feeding: "0", to: &over)
        #expect(error?.code == .responseTooLarge)
        #expect(error?.message.contains("a line longer than the limit of 16 bytes") == true)
    }

    @Test func anEndlessLineWithoutALineEndIsCutOffAtTheLimitNotBuffered() {
        var parser = ServerSentEventParser(limits: ServerSentEventLimits(maxLineBytes: 1_024))
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 100)
        var chunksAccepted = 0
        var error: CourierError?
        for _ in 0..<1_000 {
            do throws(CourierError) {
                _ = try parser.parse(chunk)
                chunksAccepted += 1
            } catch let thrown {
                error = thrown
                break
            }
        }
        #expect(error?.code == .responseTooLarge)
        #expect(chunksAccepted == 10, "the 11th chunk takes the line past 1,024 bytes")
    }

    @Test func commentLinesCountTowardsTheLineLimitToo() {
        var parser = ServerSentEventParser(limits: ServerSentEventLimits(maxLineBytes: 8))
        let error = failure(feeding: ": keep-alive padding\n", to: &parser)
        #expect(error?.code == .responseTooLarge)
    }

    @Test func dataLinesEachUnderTheLineLimitCannotGrowAnEventPastTheEventLimit() throws {
        let limits = ServerSentEventLimits(maxLineBytes: 64, maxEventBytes: 10)
        // Two 4-byte values joined by a line feed: 9 bytes, within the limit.
        var within = ServerSentEventParser(limits: limits)
        #expect(try within.parse(Array("data: abcd\ndata: efgh\n\n".utf8)) == [ServerSentEvent(data: "abcd\nefgh")])
        // A third value would make 14.
        var over = ServerSentEventParser(limits: limits)
        let error = failure(feeding: "data: abcd\ndata: efgh\ndata: ijkl\n", to: &over)
        #expect(error?.code == .responseTooLarge)
        #expect(error?.message.contains("an event larger than the limit of 10 bytes") == true)
    }

    @Test func theEventLimitIsPerEventNotPerStream() throws {
        var parser = ServerSentEventParser(limits: ServerSentEventLimits(maxLineBytes: 64, maxEventBytes: 8))
        let stream = String(repeating: "data: 12345678\n\n", count: 100)
        let events = try parser.parse(Array(stream.utf8))
        #expect(events.count == 100)
    }

    @Test func onceOverALimitTheParserStaysFailed() {
        var parser = ServerSentEventParser(limits: ServerSentEventLimits(maxLineBytes: 4))
        let first = failure(feeding: "data: too long\n", to: &parser)
        let again = failure(feeding: "\n", to: &parser)
        #expect(first?.code == .responseTooLarge)
        #expect(again?.code == .responseTooLarge)
    }

    @Test func aRetryBeyondTheMaximumIsClampedToIt() throws {
        var parser = ServerSentEventParser(limits: ServerSentEventLimits(maxRetry: .seconds(60)))
        let events = try parser.parse(Array("retry: 86400000\ndata: x\n\n".utf8))
        #expect(parser.reconnectionTime == .seconds(60))
        #expect(events.first?.retry == .seconds(60))
    }

    @Test func aRetryWithMoreDigitsThanAnInt64HoldsIsClampedNotATrap() throws {
        var parser = ServerSentEventParser()
        let digits = String(repeating: "9", count: 400)
        _ = try parser.parse(Array("retry: \(digits)\n\n".utf8))
        #expect(parser.reconnectionTime == ServerSentEventLimits().maxRetry)
        #expect(ServerSentEventLimits().maxRetry == .seconds(3_600))
        // An ordinary value after it is honoured as sent.
        _ = try parser.parse(Array("retry: 250\n\n".utf8))
        #expect(parser.reconnectionTime == .milliseconds(250))
    }
}
