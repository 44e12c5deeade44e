import CourierWebSocket
import Foundation
import Logging
import NIOCore
import ReferenceServer
import WSClient

/// Echo round trips over one WebSocket, Courier's connection beside raw `WSClient` on the same
/// server in the same run (rounds taken in turns), and the time from a dropped connection to
/// connected again with zero backoff.
///
/// Two pairs, like against like: a 64-byte text with no compression on either side, and a
/// 2 KiB JSON text with permessage-deflate on both (Courier's default settings; raw `WSClient`
/// with swift-websocket's extension, default settings too).
struct WebSocketBenchmark {
    let server: ReferenceServer
    let baseURL: URL
    let quick: Bool

    private static let rounds = 5
    private static let payload = String(repeating: "x", count: 64)
    /// The compressed pair's message: a 2 KiB JSON text, as a live feed sends.
    private static let jsonPayload: String = {
        var text = "["
        var index = 0
        while text.utf8.count < 2_000 {
            text += #"{"id":"r_\#(index)","title":"Radar \#(index)","state":"open","votes":\#(index * 7 % 100)},"#
            index += 1
        }
        return text.dropLast() + "]"
    }()

    /// Round trips of `payload` on Courier and on raw `WSClient`, in turns.
    private func pair(echoURL: URL, payload: String, compressed: Bool, perRound: Int) async throws -> (courier: LatencySamples, raw: LatencySamples) {
        var configuration = WebSocketConfiguration(url: echoURL, reconnect: .never, heartbeat: nil)
        configuration.compression = compressed ? .perMessageDeflate : nil
        let courier = WebSocketConnection(configuration: configuration)
        courier.connect()
        let raw = try await RawEchoClient.start(url: echoURL, compressed: compressed)
        var courierSamples = LatencySamples()
        var rawSamples = LatencySamples()
        do {
            var messages = courier.messages.makeAsyncIterator()
            _ = try await Self.courierRoundTrips(100, payload: payload, on: courier, messages: &messages)
            _ = try await raw.roundTrips(100, payload: payload)
            for round in 0..<Self.rounds {
                // Alternate who goes first.
                if round.isMultiple(of: 2) {
                    let (latencies, wall) = try await Self.courierRoundTrips(perRound, payload: payload, on: courier, messages: &messages)
                    courierSamples.add(latencies, wallTime: wall)
                }
                let (rawLatencies, rawWall) = try await raw.roundTrips(perRound, payload: payload)
                rawSamples.add(rawLatencies, wallTime: rawWall)
                if !round.isMultiple(of: 2) {
                    let (latencies, wall) = try await Self.courierRoundTrips(perRound, payload: payload, on: courier, messages: &messages)
                    courierSamples.add(latencies, wallTime: wall)
                }
            }
        } catch {
            await courier.close()
            await raw.stop()
            throw error
        }
        await courier.close()
        await raw.stop()
        return (courierSamples, rawSamples)
    }

    func run(into results: inout BenchResults) async throws {
        let echoURL = URL(string: baseURL.absoluteString.replacingOccurrences(of: "http://", with: "ws://") + "/debug/ws/echo")!
        let perRound = (quick ? 2_000 : 20_000) / Self.rounds
        let (courierSamples, rawSamples) = try await pair(echoURL: echoURL, payload: Self.payload, compressed: false, perRound: perRound)
        let compressedRun = try await pair(echoURL: echoURL, payload: Self.jsonPayload, compressed: true, perRound: perRound / 2)

        let ratio = rawSamples.rate > 0 ? Self.round3(courierSamples.rate / rawSamples.rate) : 0
        results.set("websocket.messages", courierSamples.count)
        results.set("websocket.payload_bytes", Self.payload.utf8.count)
        results.set("websocket.round_trips_per_s", (courierSamples.rate * 10).rounded() / 10)
        results.set("websocket.p50_ms", Self.round3(courierSamples.percentileMilliseconds(0.5)))
        results.set("websocket.p99_ms", Self.round3(courierSamples.percentileMilliseconds(0.99)))
        results.set("websocket.raw_wsclient.messages", rawSamples.count)
        results.set("websocket.raw_wsclient.round_trips_per_s", (rawSamples.rate * 10).rounded() / 10)
        results.set("websocket.raw_wsclient.p50_ms", Self.round3(rawSamples.percentileMilliseconds(0.5)))
        results.set("websocket.raw_wsclient.p99_ms", Self.round3(rawSamples.percentileMilliseconds(0.99)))
        results.set("websocket.ratio_to_raw", ratio)
        print("\nwebsocket echo (\(courierSamples.count) round trips each over one connection, \(Self.payload.utf8.count)-byte text)")
        for (name, sample) in [("courier", courierSamples), ("raw_wsclient", rawSamples)] {
            print(String(
                format: "  %-14@ %9.1f round trips/s   p50 %7.3f ms   p99 %7.3f ms",
                name as NSString, sample.rate, sample.percentileMilliseconds(0.5), sample.percentileMilliseconds(0.99)
            ))
        }
        print("  courier / raw_wsclient = \(ratio)")
        let compressedRatio = compressedRun.raw.rate > 0 ? Self.round3(compressedRun.courier.rate / compressedRun.raw.rate) : 0
        results.set("websocket.compressed.payload_bytes", Self.jsonPayload.utf8.count)
        results.set("websocket.compressed.messages", compressedRun.courier.count)
        results.set("websocket.compressed.round_trips_per_s", (compressedRun.courier.rate * 10).rounded() / 10)
        results.set("websocket.compressed.p50_ms", Self.round3(compressedRun.courier.percentileMilliseconds(0.5)))
        results.set("websocket.compressed.raw_wsclient.round_trips_per_s", (compressedRun.raw.rate * 10).rounded() / 10)
        results.set("websocket.compressed.raw_wsclient.p50_ms", Self.round3(compressedRun.raw.percentileMilliseconds(0.5)))
        results.set("websocket.compressed_ratio_to_raw", compressedRatio)
        print("  with permessage-deflate on both sides, \(Self.jsonPayload.utf8.count)-byte JSON text:")
        for (name, sample) in [("courier", compressedRun.courier), ("raw_wsclient", compressedRun.raw)] {
            print(String(
                format: "  %-14@ %9.1f round trips/s   p50 %7.3f ms   p99 %7.3f ms",
                name as NSString, sample.rate, sample.percentileMilliseconds(0.5), sample.percentileMilliseconds(0.99)
            ))
        }
        print("  courier / raw_wsclient (compressed) = \(compressedRatio)")
        try await reconnects(echoURL: echoURL, count: quick ? 20 : 100, into: &results)
    }

    private static func courierRoundTrips(
        _ count: Int,
        payload: String,
        on connection: WebSocketConnection,
        messages: inout WebSocketMessages.Iterator
    ) async throws -> ([Duration], Duration) {
        let clock = ContinuousClock()
        var latencies: [Duration] = []
        latencies.reserveCapacity(count)
        let started = clock.now
        for _ in 0..<count {
            let start = clock.now
            try await connection.send(.text(payload))
            guard await messages.next() != nil else { throw BenchError("the echo connection closed: \(connection.state)") }
            latencies.append(clock.now - start)
        }
        return (latencies, clock.now - started)
    }

    /// Drops the connection on the server, and times until it is connected again (zero backoff).
    private func reconnects(echoURL: URL, count: Int, into results: inout BenchResults) async throws {
        let connection = WebSocketConnection(configuration: WebSocketConfiguration(url: echoURL, reconnect: .immediate, heartbeat: nil))
        let states = connection.stateChanges()
        var iterator = states.makeAsyncIterator()
        connection.connect()
        func waitForConnected() async throws {
            while let state = await iterator.next() {
                if state == .connected { return }
                if state.isClosed { break }
            }
            throw BenchError("the connection closed instead of reconnecting: \(connection.state)")
        }
        try await waitForConnected()
        var samples = LatencySamples()
        for _ in 0..<count {
            // The server must have registered the socket before it can drop it.
            while server.realtime.openWebSocketCount == 0 { await Task.yield() }
            let start = ContinuousClock.now
            server.realtime.dropConnections()
            try await waitForConnected()
            let elapsed = ContinuousClock.now - start
            samples.add([elapsed], wallTime: elapsed)
        }
        await connection.close()
        results.set("websocket.reconnect_ms.p50", Self.round3(samples.percentileMilliseconds(0.5)))
        results.set("websocket.reconnect_ms.p99", Self.round3(samples.percentileMilliseconds(0.99)))
        results.set("websocket.reconnect_ms.reconnects", samples.count)
        print(String(format: "  reconnect after a drop (zero backoff): p50 %.3f ms   p99 %.3f ms   (%d reconnects)", samples.percentileMilliseconds(0.5), samples.percentileMilliseconds(0.99), samples.count))
    }

    private static func round3(_ value: Double) -> Double {
        (value * 1_000).rounded() / 1_000
    }
}

/// A failure of a benchmark's own setup.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
