import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A loopback origin that keeps each request exactly as it came off the socket (no HTTP
/// library between the bytes and the test): its head as text, and its body as sent, framing
/// included. It reads a body by its `Content-Length`, or to the last chunk of a chunked one,
/// then answers `200` with an empty body and closes the connection.
///
/// Binds `127.0.0.1:0`; ``stop()`` closes it and every connection.
final class RecordingUploadServer: StoppableTestServer {
    /// One request as received.
    struct Exchange: Sendable {
        /// The request line and header lines, without the blank line that ends them.
        let head: String
        /// Every byte after the head, as it came (chunk framing included).
        let body: [UInt8]

        /// The values of the header lines named `name` (compared without regard to case).
        func values(of name: String) -> [String] {
            head.split(separator: "\r\n").dropFirst().compactMap { line in
                guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == name.lowercased() else { return nil }
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
    }

    private let listener: LoopbackChannel
    private let exchanges: Exchanges
    /// `http://127.0.0.1:PORT`.
    var url: URL { listener.url }

    init() async throws {
        let exchanges = Exchanges()
        self.exchanges = exchanges
        listener = try await LoopbackChannel { channel in
            // Added on the channel's loop, which then alone touches the handler's state.
            channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Record(exchanges: exchanges)) }
        }
    }

    /// The requests received whole so far, in order.
    var received: [Exchange] { exchanges.all }

    func stop() async {
        await listener.close()
    }

    private final class Exchanges: Sendable {
        private let list = Mutex<[Exchange]>([])
        var all: [Exchange] { list.withLock { $0 } }
        func append(_ exchange: Exchange) { list.withLock { $0.append(exchange) } }
    }

    /// Gathers one request, records it once its body is complete, answers and closes.
    private final class Record: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer

        let exchanges: Exchanges
        var bytes: [UInt8] = []
        var answered = false

        init(exchanges: Exchanges) {
            self.exchanges = exchanges
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !answered else { return }
            bytes += Array(buffer: unwrapInboundIn(data))
            guard let end = Self.endOfHead(in: bytes) else { return }
            let exchange = Exchange(head: String(decoding: bytes[..<end], as: UTF8.self), body: Array(bytes[(end + 4)...]))
            let lengths = exchange.values(of: "Content-Length").compactMap { Int($0) }
            let chunked = exchange.values(of: "Transfer-Encoding").contains { $0.lowercased().contains("chunked") }
            let complete = chunked
                ? exchange.body.count >= 5 && Array(exchange.body.suffix(5)) == Array("0\r\n\r\n".utf8)
                : exchange.body.count >= (lengths.first ?? 0)
            guard complete else { return }
            answered = true
            exchanges.append(exchange)
            let channel = context.channel
            let answer = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            context.writeAndFlush(NIOAny(channel.allocator.buffer(string: answer))).whenComplete { _ in channel.close(promise: nil) }
        }

        static func endOfHead(in bytes: [UInt8]) -> Int? {
            guard bytes.count >= 4 else { return nil }
            for index in 0...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
                return index
            }
            return nil
        }
    }
}

/// Runs `body` with a ``RecordingUploadServer``, stopped afterwards whether `body` returned or threw.
func withRecordingUploadServer<T>(_ body: (RecordingUploadServer) async throws -> T) async throws -> T {
    try await withStopping(try await RecordingUploadServer(), body)
}
