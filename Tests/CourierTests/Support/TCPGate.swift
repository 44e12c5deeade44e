import Foundation
import NIOCore
import NIOPosix
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback port in front of a server that refuses connections until the test opens it,
/// then forwards bytes both ways: "the server is unreachable, then reachable", with real
/// sockets and no guessed port.
///
/// The gate binds `127.0.0.1:0` at once, so its port is the system's choice and stays its own,
/// but does not listen: a connection to it is refused (`ECONNREFUSED`), exactly what a client
/// sees when nothing serves that port. ``open()`` starts listening on the same socket, and
/// every connection accepted from then on is spliced to the upstream server. Nothing else can
/// take the port in between, since the gate holds it all along.
///
/// `Sendable` without `@unchecked`: the state sits in a `Mutex`.
final class TCPGate: Sendable {
    /// The gate could not bind, or was opened twice.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private struct State {
        /// The bound socket, until ``open()`` hands it to NIO (or ``stop()`` closes it).
        var descriptor: CInt?
        /// The listening channel, once open.
        var listener: (any Channel)?
        /// Every connection accepted, to close at ``stop()``.
        var accepted: [any Channel] = []
    }

    /// `http://127.0.0.1:PORT`: point clients here instead of at the server.
    let url: URL
    /// The gate's port.
    let port: Int
    /// Counts reads of bytes a client sent through the gate: a request on the wire.
    let clientReads = EventCounter()
    /// Reads from the server's side, each of which the gate passes on to the client.
    let serverReads = EventCounter()
    /// Where the gate forwards to.
    private enum Upstream {
        case tcp(host: String, port: Int)
        case unixSocket(path: String)
    }

    private let upstream: Upstream
    private let state: Mutex<State>

    /// Binds a loopback port without listening on it.
    /// - Parameter upstream: The server the gate forwards to once open, `http://HOST:PORT`.
    convenience init(upstream: URL) throws {
        guard let host = upstream.host, let port = upstream.port else {
            throw Failure(description: "the upstream URL has no host and port: \(upstream)")
        }
        try self.init(.tcp(host: host, port: port))
    }

    /// Binds a loopback port without listening on it, in front of a server on a Unix socket
    /// (a private PostgreSQL server's).
    /// - Parameter path: The socket's path.
    convenience init(upstreamUnixSocket path: String) throws {
        try self.init(.unixSocket(path: path))
    }

    private init(_ upstream: Upstream) throws {
        self.upstream = upstream
        let descriptor = try TCPGate.bindLoopback()
        let bound: Int
        do {
            bound = try TCPGate.boundPort(of: descriptor)
        } catch {
            _ = close(descriptor)
            throw error
        }
        self.port = bound
        self.url = URL(string: "http://127.0.0.1:\(bound)")!
        self.state = Mutex(State(descriptor: descriptor))
    }

    /// Starts listening on the gate's port and forwarding every connection to the upstream server.
    func open() async throws {
        let descriptor = state.withLock { state -> CInt? in
            defer { state.descriptor = nil }
            return state.descriptor
        }
        guard let descriptor else { throw Failure(description: "the gate is already open or stopped") }
        let upstream = upstream
        let clientReads = clientReads
        let serverReads = serverReads
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { [self] inbound in
                remember(inbound)
                // The upstream connection runs on the client connection's event loop, so the
                // two halves of the splice call each other directly.
                let bootstrap = ClientBootstrap(group: inbound.eventLoop)
                let connected = switch upstream {
                case .tcp(let host, let port): bootstrap.connect(host: host, port: port)
                case .unixSocket(let path): bootstrap.connect(unixDomainSocketPath: path)
                }
                return connected
                    .flatMapThrowing { outbound in
                        let (fromClient, fromServer) = Splice.pair(onClientRead: { clientReads.record() }, onServerRead: { serverReads.record() })
                        try inbound.pipeline.syncOperations.addHandler(fromClient)
                        try outbound.pipeline.syncOperations.addHandler(fromServer)
                    }
            }
            .withBoundSocket(descriptor)
            .get()
        state.withLock { $0.listener = listener }
    }

    /// Stops listening (or releases the port if the gate never opened) and closes every
    /// connection it accepted.
    func stop() async {
        let (descriptor, listener, accepted) = state.withLock { state -> (CInt?, (any Channel)?, [any Channel]) in
            defer { state = State() }
            return (state.descriptor, state.listener, state.accepted)
        }
        if let descriptor { _ = close(descriptor) }
        try? await listener?.close()
        for connection in accepted { try? await connection.close() }
    }

    /// Makes every connection accepted so far go silent: the bytes either side sends are
    /// dropped and nothing is closed, as a failover or a NAT leaves a half-open connection.
    /// Connections accepted later forward as before.
    func silenceConnections() async {
        let accepted = state.withLock { $0.accepted }
        for connection in accepted {
            try? await connection.eventLoop.submit {
                try connection.pipeline.syncOperations.handler(type: Splice.self).silence()
            }.get()
        }
    }

    private func remember(_ connection: any Channel) {
        state.withLock { $0.accepted.append(connection) }
    }

    /// A TCP socket bound to `127.0.0.1:0`, not listening.
    private static func bindLoopback() throws -> CInt {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, CInt(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let code = errno
            _ = close(descriptor)
            throw Failure(description: "bind() failed: errno \(code)")
        }
        return descriptor
    }

    /// The port a socket is bound to.
    private static func boundPort(of descriptor: CInt) throws -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard result == 0 else { throw Failure(description: "getsockname() failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// One half of a splice between two channels on the same event loop: what one reads, the
/// other writes, with back-pressure (a side reads only while the other can write), and a
/// close on either side closes both.
private final class Splice: ChannelDuplexHandler {
    typealias InboundIn = NIOAny
    typealias OutboundIn = NIOAny
    typealias OutboundOut = NIOAny

    private var partner: Splice?
    private var context: ChannelHandlerContext?
    private var pendingRead = false
    private var silenced = false
    private let onRead: (@Sendable () -> Void)?

    private init(onRead: (@Sendable () -> Void)?) {
        self.onRead = onRead
    }

    /// The two halves: the first goes on the client's connection, the second on the server's.
    static func pair(onClientRead: @escaping @Sendable () -> Void, onServerRead: @escaping @Sendable () -> Void) -> (Splice, Splice) {
        let fromClient = Splice(onRead: onClientRead)
        let fromServer = Splice(onRead: onServerRead)
        fromClient.partner = fromServer
        fromServer.partner = fromClient
        return (fromClient, fromServer)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        self.partner = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !silenced else { return }
        onRead?()
        partner?.context?.write(data, promise: nil)
    }

    /// Drops what either side sends from now on (see ``TCPGate/silenceConnections()``).
    func silence() {
        silenced = true
        partner?.silenced = true
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        partner?.context?.flush()
    }

    func channelInactive(context: ChannelHandlerContext) {
        partner?.context?.close(promise: nil)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        partner?.context?.close(promise: nil)
        context.close(promise: nil)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, let partner, partner.pendingRead {
            partner.pendingRead = false
            partner.context?.read()
        }
        context.fireChannelWritabilityChanged()
    }

    func read(context: ChannelHandlerContext) {
        if partner?.context?.channel.isWritable ?? false {
            context.read()
        } else {
            pendingRead = true
        }
    }
}
