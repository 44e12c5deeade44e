@testable import CourierAsyncHTTPClient
import NIOCore
import NIOEmbedded
import NIOHPACK
import NIOHTTP2
import Testing

/// The handler that tells streams a server's `GOAWAY` left unprocessed from streams the server
/// reset, on an embedded channel: the frames and closures NIOHTTP2 would pass it, in its order.
@Suite("Streams above a GOAWAY's last stream")
struct HTTP2ConnectionGuardTests {
    /// Records the stream closures that reach the end of the pipeline.
    private final class ClosureRecorder: ChannelInboundHandler {
        typealias InboundIn = HTTP2Frame
        var closures: [StreamClosedEvent] = []

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if let closed = event as? StreamClosedEvent { closures.append(closed) }
            context.fireUserInboundEventTriggered(event)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            context.fireChannelRead(data)
        }
    }

    private func goAway(lastStream: HTTP2StreamID) -> HTTP2Frame {
        HTTP2Frame(streamID: .rootStream, payload: .goAway(lastStreamID: lastStream, errorCode: .noError, opaqueData: nil))
    }

    @Test func aStreamAboveTheLastStreamClosedWithCancelReachesTheStreamAsRefused() throws {
        let channel = EmbeddedChannel()
        let recorder = ClosureRecorder()
        try channel.pipeline.syncOperations.addHandler(HTTP2ConnectionGuard())
        try channel.pipeline.syncOperations.addHandler(recorder)

        try channel.writeInbound(goAway(lastStream: 5))
        channel.pipeline.fireUserInboundEventTriggered(StreamClosedEvent(streamID: 3, reason: .cancel))
        channel.pipeline.fireUserInboundEventTriggered(StreamClosedEvent(streamID: 5, reason: .cancel))
        channel.pipeline.fireUserInboundEventTriggered(StreamClosedEvent(streamID: 7, reason: .cancel))
        channel.pipeline.fireUserInboundEventTriggered(StreamClosedEvent(streamID: 9, reason: .protocolError))
        channel.pipeline.fireUserInboundEventTriggered(StreamClosedEvent(streamID: 11, reason: nil))

        #expect(recorder.closures.map(\.streamID) == [3, 5, 7, 9, 11])
        // Up to the last stream the server may have processed them: the reset stays a reset.
        // Above it only a stream closed with CANCEL (what NIOHTTP2 uses for the GOAWAY's) changes.
        #expect(recorder.closures.map(\.reason) == [.cancel, .cancel, .refusedStream, .protocolError, nil])
        // The GOAWAY frame itself passes on untouched.
        let frame = try channel.readInbound(as: HTTP2Frame.self)
        #expect(frame?.streamID == .rootStream)
        _ = try channel.finish()
    }

    @Test func aStreamTheServerHadBegunToAnswerStaysAReset() throws {
        let channel = EmbeddedChannel()
        let recorder = ClosureRecorder()
        try channel.pipeline.syncOperations.addHandler(HTTP2ConnectionGuard())
        try channel.pipeline.syncOperations.addHandler(recorder)

        // The server sends the head of stream 7's answer, then a GOAWAY naming stream 5 as its
        // last: a server that answered a stream processed it, whatever its GOAWAY says.
        try channel.writeInbound(HTTP2Frame(streamID: 7, payload: .headers(.init(headers: [":status": "200"]))))
        try channel.writeInbound(goAway(lastStream: 5))
        channel.pipeline.fireUserInboundEventTriggered(StreamClosedEvent(streamID: 7, reason: .cancel))
        channel.pipeline.fireUserInboundEventTriggered(StreamClosedEvent(streamID: 9, reason: .cancel))

        #expect(recorder.closures.map(\.reason) == [.cancel, .refusedStream])
        _ = try channel.finish(acceptAlreadyClosed: true)
    }

    @Test func beforeAnyGoAwayAndAfterALowerOneTheLowestLastStreamDecides() throws {
        let channel = EmbeddedChannel()
        let recorder = ClosureRecorder()
        try channel.pipeline.syncOperations.addHandler(HTTP2ConnectionGuard())
        try channel.pipeline.syncOperations.addHandler(recorder)

        // No GOAWAY yet: a CANCEL is the server's reset.
        channel.pipeline.fireUserInboundEventTriggered(StreamClosedEvent(streamID: 21, reason: .cancel))
        // A graceful GOAWAY (last stream 2^31-1), then the final one naming stream 13; a later,
        // higher one cannot take the promise back.
        try channel.writeInbound(goAway(lastStream: .maxID))
        channel.pipeline.fireUserInboundEventTriggered(StreamClosedEvent(streamID: 23, reason: .cancel))
        try channel.writeInbound(goAway(lastStream: 13))
        try channel.writeInbound(goAway(lastStream: 41))
        channel.pipeline.fireUserInboundEventTriggered(StreamClosedEvent(streamID: 25, reason: .cancel))

        #expect(recorder.closures.map(\.reason) == [.cancel, .cancel, .refusedStream])
        _ = try channel.finish(acceptAlreadyClosed: true)
    }
}
