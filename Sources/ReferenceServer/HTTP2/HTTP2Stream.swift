import NIOCore
import NIOHTTP2

/// What the reference server does with the HTTP/2 stream a request came on: its id, a reset
/// (`RST_STREAM`) with a code, a `GOAWAY` on its connection. Every function is a no-op (or
/// `nil`) for a request that came over HTTP/1.1, whose channel is the connection itself.
enum HTTP2Stream {
    /// Whether a request's channel is an HTTP/2 stream: its parent is the connection, which has
    /// a parent of its own (the listening socket). An HTTP/1.1 request's channel is the connection.
    /// (A socket channel traps on an option it does not know, so this is asked before any option.)
    static func isStream(_ channel: any Channel) -> Bool {
        channel.parent?.parent != nil
    }

    /// The stream's id; `nil` when the channel is not an HTTP/2 stream.
    static func id(of channel: any Channel) async -> HTTP2StreamID? {
        guard isStream(channel) else { return nil }
        return try? await channel.getOption(HTTP2StreamChannelOptions.streamID).get()
    }

    /// The connection a request's channel belongs to: the stream's parent on HTTP/2, the
    /// channel itself on HTTP/1.1.
    static func connection(of channel: any Channel) async -> any Channel {
        guard await id(of: channel) != nil, let parent = channel.parent else { return channel }
        return parent
    }

    /// Resets the stream with a code (`REFUSED_STREAM`: the server did not process it), written
    /// on the connection so that it goes out as the frame itself, not through the stream's codec.
    /// - Returns: Whether the channel was an HTTP/2 stream.
    @discardableResult
    static func reset(_ channel: any Channel, code: HTTP2ErrorCode) async -> Bool {
        guard let id = await id(of: channel), let connection = channel.parent else { return false }
        try? await connection.writeAndFlush(HTTP2Frame(streamID: id, payload: .rstStream(code)))
        return true
    }

    /// Sends a graceful `GOAWAY` on a connection: streams up to `lastStreamID` are finished,
    /// any the client opened after it are refused (the client may send those again elsewhere).
    static func goAway(_ connection: any Channel, lastStreamID: HTTP2StreamID) async {
        try? await connection.writeAndFlush(HTTP2Frame(streamID: .rootStream, payload: .goAway(lastStreamID: lastStreamID, errorCode: .noError, opaqueData: nil)))
    }
}
