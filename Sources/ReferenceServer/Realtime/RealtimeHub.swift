import NIOCore
import RadarCore
import Synchronization

/// The reference server's real-time side: the radar update feed, the open WebSockets and
/// event streams, and the faults tests script on them.
///
/// ```swift
/// server.realtime.dropConnections()            // every socket closed without a close frame; streams ended
/// server.realtime.stopAnsweringPings()         // the next socket never reads, so never answers a ping
/// server.realtime.closeWebSockets(code: 4001, reason: "banned")
/// ```
/// `Sendable` without `@unchecked`: all state is held in a `Mutex`.
public final class RealtimeHub: Sendable {
    /// A command for one open socket's session.
    enum SocketCommand: Sendable {
        case close(code: UInt16, reason: String)
    }

    private struct OpenSocket {
        let channel: any Channel
        let commands: AsyncStream<SocketCommand>.Continuation
    }

    private struct State {
        var sockets: [Int: OpenSocket] = [:]
        var nextSocketID = 0
        var acceptedSockets = 0
        var deafSocketsToCome = 0
        var lastEventIDs: [String] = []
        var eventStreamRetryMilliseconds = 1_000
    }

    let feed = RadarUpdateFeed()
    private let state = Mutex(State())

    init() {}

    // MARK: - Controls

    /// Closes every open WebSocket without a close frame (as a dropped connection would) and
    /// ends every event stream.
    /// - Returns: How many sockets and streams were ended.
    @discardableResult
    public func dropConnections() -> Int {
        let channels = state.withLock { $0.sockets.values.map(\.channel) }
        for channel in channels { channel.close(promise: nil) }
        return channels.count + feed.endDroppableSubscriptions()
    }

    /// Sends a close frame with this code and reason on every open WebSocket.
    /// - Parameters:
    ///   - code: The close code, such as 1000 or an application's 4xxx.
    ///   - reason: The close reason.
    public func closeWebSockets(code: UInt16, reason: String) {
        let sockets = state.withLock { Array($0.sockets.values) }
        for socket in sockets { socket.commands.yield(.close(code: code, reason: reason)) }
    }

    /// Makes the next `connections` accepted WebSockets deaf: they never read, so pings go
    /// unanswered (a client's heartbeat then declares them dead).
    /// - Parameter connections: How many sockets to come.
    public func stopAnsweringPings(connections: Int = 1) {
        state.withLock { $0.deafSocketsToCome += max(0, connections) }
    }

    /// Sets the `retry:` (in milliseconds) that event streams start with; 1000 by default.
    /// - Parameter milliseconds: The reconnection time clients should use.
    public func setEventStreamRetry(milliseconds: Int) {
        state.withLock { $0.eventStreamRetryMilliseconds = max(0, milliseconds) }
    }

    /// How many WebSockets are open now.
    public var openWebSocketCount: Int {
        state.withLock { $0.sockets.count }
    }

    /// How many WebSocket handshakes were accepted so far.
    public var acceptedWebSocketCount: Int {
        state.withLock { $0.acceptedSockets }
    }

    /// The `Last-Event-ID` values event-stream requests carried, in order ("" for none).
    public var receivedLastEventIDs: [String] {
        state.withLock { $0.lastEventIDs }
    }

    // MARK: - For the sessions

    /// Registers an accepted socket.
    /// - Returns: Its id, its commands, and whether it is to be deaf.
    func register(_ channel: any Channel) -> (id: Int, commands: AsyncStream<SocketCommand>, deaf: Bool) {
        let (commands, continuation) = AsyncStream.makeStream(of: SocketCommand.self)
        return state.withLock { state in
            state.nextSocketID += 1
            state.acceptedSockets += 1
            state.sockets[state.nextSocketID] = OpenSocket(channel: channel, commands: continuation)
            let deaf = state.deafSocketsToCome > 0
            if deaf { state.deafSocketsToCome -= 1 }
            return (state.nextSocketID, commands, deaf)
        }
    }

    func unregister(_ id: Int) {
        state.withLock { $0.sockets.removeValue(forKey: id) }?.commands.finish()
    }

    func noteLastEventID(_ value: String?) {
        state.withLock { $0.lastEventIDs.append(value ?? "") }
    }

    var eventStreamRetryMilliseconds: Int {
        state.withLock { $0.eventStreamRetryMilliseconds }
    }
}
