import Foundation
import Logging
import NIOCore
import Synchronization
import WSClient
import WSCompression

/// Raw `WSClient`, the baseline of the WebSocket benchmark: one connection whose handler runs
/// batches of echo round trips on request, timing each inside the handler itself (write a
/// text frame, read the next message).
final class RawEchoClient: Sendable {
    private struct Batch: Sendable {
        let count: Int
        let payload: String
        let reply: CheckedContinuation<([Duration], Duration), any Error>
    }

    private let batches: AsyncStream<Batch>.Continuation
    private let task: Task<Void, any Error>

    private init(batches: AsyncStream<Batch>.Continuation, task: Task<Void, any Error>) {
        self.batches = batches
        self.task = task
    }

    /// Connects and waits until the handshake is done.
    /// - Parameters:
    ///   - url: The echo route.
    ///   - compressed: Whether to offer permessage-deflate (swift-websocket's extension, its
    ///     default settings, messages decoded up to 16 MiB as Courier's).
    static func start(url: URL, compressed: Bool = false) async throws -> RawEchoClient {
        let (stream, continuation) = AsyncStream.makeStream(of: Batch.self)
        let (opened, openedContinuation) = AsyncStream.makeStream(of: Void.self)
        let configuration = WebSocketClientConfiguration(
            maxFrameSize: 1 << 20,
            extensions: compressed ? [.perMessageDeflate(maxDecompressedFrameSize: 16 << 20)] : [],
            validateUTF8: true
        )
        let task = Task {
            var logger = Logger(label: "courier.bench.raw-ws")
            logger.logLevel = .warning
            try await WebSocketClient.connect(url: url.absoluteString, configuration: configuration, logger: logger) { inbound, outbound, _ in
                openedContinuation.finish()
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                let clock = ContinuousClock()
                for await batch in stream {
                    var latencies: [Duration] = []
                    latencies.reserveCapacity(batch.count)
                    let started = clock.now
                    do {
                        for _ in 0..<batch.count {
                            let start = clock.now
                            try await outbound.write(.text(batch.payload))
                            guard try await messages.next() != nil else { throw BenchError("the raw echo connection closed") }
                            latencies.append(clock.now - start)
                        }
                        batch.reply.resume(returning: (latencies, clock.now - started))
                    } catch {
                        batch.reply.resume(throwing: error)
                        throw error
                    }
                }
            }
        }
        for await _ in opened {}
        return RawEchoClient(batches: continuation, task: task)
    }

    /// Runs `count` round trips; returns each latency and the batch's wall time.
    func roundTrips(_ count: Int, payload: String) async throws -> ([Duration], Duration) {
        try await withCheckedThrowingContinuation { continuation in
            batches.yield(Batch(count: count, payload: payload, reply: continuation))
        }
    }

    /// Ends the handler, which closes the connection.
    func stop() async {
        batches.finish()
        _ = await task.result
    }
}
