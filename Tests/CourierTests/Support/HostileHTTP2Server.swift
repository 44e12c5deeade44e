import Foundation
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOPosix
import NIOSSL
import ReferenceServer
import Synchronization

/// An HTTP/2 server over TLS on 127.0.0.1, on a port it picked, that misbehaves in one chosen
/// way: it speaks raw frames (NIOHTTP2 with no stream multiplexer), so it can send what a
/// well-behaved server never would. ALPN offers `h2` only, as a service that speaks nothing else.
final class HostileHTTP2Server: Sendable {
    /// How the server misbehaves.
    enum Behaviour: Sendable {
        /// Announces `SETTINGS_MAX_CONCURRENT_STREAMS` 0 and answers nothing.
        case zeroConcurrentStreams
        /// Answers every request with a header block that decodes far past the size the client
        /// announced (`SETTINGS_MAX_HEADER_LIST_SIZE`): one 4,000-byte field this many times,
        /// each after the first a one-byte reference to HPACK's dynamic table, so that the block
        /// itself stays small (an HPACK bomb).
        case oversizedHeaderBlock(copies: Int)
        /// Sends this many `PING`s before each answer, then answers `200` with a small body.
        case pingFlood(count: Int)
        /// Answers `200` with part of a body, then `GOAWAY` naming no stream processed, and closes.
        case goAwayMidDownload(afterBytes: Int)
        /// Offers only this ALPN protocol, one the client does not speak, and speaks HTTP/2
        /// (answering `200`) whatever the client sends.
        case offersOnlyALPN(String)
        /// Reads part of a request's body (less than the 65,535-byte window, which it never
        /// opens further), then `GOAWAY` naming no stream processed, and closes.
        case goAwayMidUpload(afterBytes: Int)
    }

    let url: URL
    let caDER: Data
    private let channel: any Channel
    private let counters: Counters

    /// What the server saw, for tests.
    final class Counters: Sendable {
        let requests = Atomic<Int>(0)
        let connections = Atomic<Int>(0)
    }

    /// Requests whose `HEADERS` arrived.
    var requests: Int { counters.requests.load(ordering: .relaxed) }
    /// Connections accepted.
    var connections: Int { counters.connections.load(ordering: .relaxed) }

    private init(url: URL, caDER: Data, channel: any Channel, counters: Counters) {
        self.url = url
        self.caDER = caDER
        self.channel = channel
        self.counters = counters
    }

    /// Starts a server that behaves so.
    static func start(_ behaviour: Behaviour) async throws -> HostileHTTP2Server {
        let authority = try LocalCertificateAuthority(name: "Courier hostile HTTP/2 server")
        var tls = try authority.serverTLSConfiguration()
        if case .offersOnlyALPN(let name) = behaviour {
            tls.applicationProtocols = [name]
        } else {
            tls.applicationProtocols = ["h2"]
        }
        let context = try NIOSSLContext(configuration: tls)
        let counters = Counters()
        var settings = nioDefaultSettings
        if case .zeroConcurrentStreams = behaviour {
            settings = [HTTP2Setting(parameter: .maxConcurrentStreams, value: 0)]
        }
        let initialSettings = settings
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                counters.connections.add(1, ordering: .relaxed)
                return channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(NIOSSLServerHandler(context: context))
                    try pipeline.addHandler(NIOHTTP2Handler(mode: .server, initialSettings: initialSettings))
                    try pipeline.addHandler(Misbehaviour(behaviour, counters: counters))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        let port = channel.localAddress?.port ?? 0
        return HostileHTTP2Server(url: URL(string: "https://127.0.0.1:\(port)")!, caDER: try authority.caDER(), channel: channel, counters: counters)
    }

    /// Stops listening. (Accepted connections close with their peers.)
    func stop() async {
        try? await channel.close()
    }

    /// Runs `body` with a server, stopped on every path.
    static func with<T>(_ behaviour: Behaviour, _ body: (HostileHTTP2Server) async throws -> T) async throws -> T {
        let server = try await start(behaviour)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }
}

/// The frames one connection answers with.
private final class Misbehaviour: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    let behaviour: HostileHTTP2Server.Behaviour
    let counters: HostileHTTP2Server.Counters
    /// Body bytes read per stream (for `goAwayMidUpload`).
    var uploaded: [HTTP2StreamID: Int] = [:]
    var closing = false

    init(_ behaviour: HostileHTTP2Server.Behaviour, counters: HostileHTTP2Server.Counters) {
        self.behaviour = behaviour
        self.counters = counters
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        guard !closing else { return }
        switch frame.payload {
        case .headers:
            counters.requests.add(1, ordering: .relaxed)
            answer(frame.streamID, context: context)
        case .data(let body):
            guard case .goAwayMidUpload(let limit) = behaviour else { return }
            uploaded[frame.streamID, default: 0] += body.data.readableBytes
            if uploaded[frame.streamID, default: 0] >= limit { goAwayAndClose(context: context) }
        default:
            break
        }
    }

    private func answer(_ stream: HTTP2StreamID, context: ChannelHandlerContext) {
        switch behaviour {
        case .zeroConcurrentStreams, .goAwayMidUpload:
            break
        case .oversizedHeaderBlock(let copies):
            let field = String(repeating: "a", count: 4_000)
            let headers = HPACKHeaders([(":status", "200")] + Array(repeating: ("x-padding", field), count: copies))
            context.writeAndFlush(wrapOutboundOut(HTTP2Frame(streamID: stream, payload: .headers(.init(headers: headers, endStream: true)))), promise: nil)
        case .offersOnlyALPN:
            respond(stream, body: ByteBuffer(string: "{\"ok\":true}"), endStream: true, context: context)
        case .pingFlood(let count):
            for index in 0..<count {
                context.write(wrapOutboundOut(HTTP2Frame(streamID: .rootStream, payload: .ping(HTTP2PingData(withInteger: UInt64(index)), ack: false))), promise: nil)
            }
            respond(stream, body: ByteBuffer(string: "{\"ok\":true}"), endStream: true, context: context)
        case .goAwayMidDownload(let bytes):
            respond(stream, body: ByteBuffer(repeating: UInt8(ascii: "x"), count: bytes), endStream: false, contentLength: bytes * 4, context: context)
            goAwayAndClose(context: context)
        }
    }

    private func respond(_ stream: HTTP2StreamID, body: ByteBuffer, endStream: Bool, contentLength: Int? = nil, context: ChannelHandlerContext) {
        let headers = HPACKHeaders([(":status", "200"), ("content-type", "application/json"), ("content-length", "\(contentLength ?? body.readableBytes)")])
        context.write(wrapOutboundOut(HTTP2Frame(streamID: stream, payload: .headers(.init(headers: headers)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(HTTP2Frame(streamID: stream, payload: .data(.init(data: .byteBuffer(body), endStream: endStream)))), promise: nil)
    }

    /// `GOAWAY` saying no stream was processed (last stream 0), then the connection closes.
    private func goAwayAndClose(context: ChannelHandlerContext) {
        closing = true
        let goAway = HTTP2Frame(streamID: .rootStream, payload: .goAway(lastStreamID: .rootStream, errorCode: .noError, opaqueData: nil))
        context.writeAndFlush(wrapOutboundOut(goAway)).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }
}
