import Courier
import CourierTesting
@testable import CourierURLSession
import Foundation
import HTTPTypes
import ReferenceServer
import Testing

@Suite("URLSession response bodies stream, within their limit and deadline")
struct URLSessionStreamingTests {
    private func get(_ base: URL, _ path: String) -> HTTPRequest {
        HTTPRequest(method: .get, scheme: "http", authority: "\(base.host!):\(base.port!)", path: path)
    }

    @Test func aLongBodyIsHandedBackAsAStreamAndReadsWholeInOrder() async throws {
        let count = 8 << 20
        try await withReferenceServer { url in
            try await withTransport(.urlSession) { transport in
                let (head, body) = try await transport.send(
                    get(url, "/debug/bytes?count=\(count)&chunked=1"), body: nil, context: RequestContext(endpoint: "test")
                )
                #expect(head.status == .ok)
                let stream = try #require(body)
                #expect(stream.bufferedData == nil)
                var received = 0
                var chunks = 0
                var inOrder = true
                for try await chunk in stream {
                    if !GeneratedBytes.match(chunk, at: received) { inOrder = false }
                    received += chunk.count
                    chunks += 1
                }
                #expect(received == count)
                #expect(chunks > 1)
                #expect(inOrder)
            }
        }
    }

    @Test func aShortBodyOfKnownLengthComesWholeAndReplayable() async throws {
        try await withReferenceServer { url in
            try await withTransport(.urlSession) { transport in
                let (_, body) = try await transport.send(get(url, "/debug/bytes?count=1000"), body: nil, context: RequestContext(endpoint: "test"))
                #expect(body?.bufferedData?.count == 1000)
            }
        }
    }

    @Test func aBodyGrowingPastTheLimitFailsAsItArrives() async throws {
        try await withReferenceServer { url in
            try await withTransport(.urlSession) { transport in
                let context = RequestContext(endpoint: "test", options: RequestOptions(maxResponseBytes: 1 << 20))
                let (_, body) = try await transport.send(get(url, "/debug/bytes?count=\(16 << 20)&chunked=1"), body: nil, context: context)
                let error = await #expect(throws: CourierError.self) {
                    _ = try await #require(body).collect(upTo: Int.max)
                }
                #expect(error?.code == .responseTooLarge)
            }
        }
    }

    /// The head and the first bytes come at once; the deadline, 5 s out (times the suite's
    /// patience, see `testPatience`) so that they come first even on a loaded machine, passes
    /// while the body waits. URLSession's own idle timeout is set past the deadline, so the
    /// message shows that the transport's timer ended it.
    @Test func aDeadlineThatPassesMidBodyFailsTheReadWithTimedOut() async throws {
        try await withStallingServer { server in
            try await withTransport(.urlSession) { transport in
                let context = RequestContext(endpoint: "test", options: RequestOptions(timeout: .seconds(5 * testPatience)))
                let (head, body) = try await transport.send(get(server.url, "/stall"), body: nil, context: context)
                #expect(head.status == .ok)
                var iterator = try #require(body).makeAsyncIterator()
                let first = try await iterator.next()
                #expect((first?.count ?? 0) > 0)
                let error = await #expect(throws: CourierError.self) {
                    while try await iterator.next() != nil {}
                }
                #expect(error?.code == .timedOut)
                #expect(error?.message == "the request did not finish before its deadline")
            }
        }
    }

    @Test func aFinishedRequestLeavesNoDeadlineBehind() async throws {
        try await withReferenceServer { url in
            let transport = URLSessionTransport()
            defer { transport.session.invalidateAndCancel() }
            let context = RequestContext(endpoint: "test", options: RequestOptions(timeout: .seconds(30)))
            for path in ["/debug/ping", "/debug/bytes?count=1000", "/debug/bytes?count=\(1 << 20)&chunked=1"] {
                let (_, body) = try await transport.send(get(url, path), body: nil, context: context)
                _ = try await body?.collect(upTo: Int.max)
            }
            #expect(transport.deadlines.count == 0)
        }
    }

    @Test func cancellingTheReaderCancelsTheTransfer() async throws {
        try await withStallingServer { server in
            try await withTransport(.urlSession) { transport in
                let (_, body) = try await transport.send(get(server.url, "/stall"), body: nil, context: RequestContext(endpoint: "test"))
                let stream = try #require(body)
                let reader = Task { try await stream.collect(upTo: Int.max) }
                reader.cancel()
                let error = await #expect(throws: CourierError.self) { try await reader.value }
                #expect(error?.code == .cancelled)
            }
        }
    }
}

@Suite("URLSession downloads and limits, measured in a process of their own")
struct URLSessionMemoryTests {
    private static func run(_ arguments: [String]) async throws -> [String: String] {
        let output = Pipe()
        let child = try startCourier(["download-child", "--engine", "urlsession"] + arguments, output: output)
        #expect(try await waitForExit(child, limit: .seconds(180)) == 0)
        let report = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let words = report.split(whereSeparator: \.isWhitespace).map(String.init)
        try #require(words.count % 2 == 0 && !words.isEmpty, "unexpected report: \(report)")
        return Dictionary(uniqueKeysWithValues: stride(from: 0, to: words.count, by: 2).map { (words[$0], words[$0 + 1]) })
    }

    @Test(.enabled(if: ResidentMemory.current() != nil, "resident memory is read from /proc on Linux"))
    /// On Linux nothing holds URLSession back while the reader lags (see `ResponseStream`), so a
    /// busy machine lets some megabytes pile up: the bound is well under the body's size, which
    /// a body held whole would pass, not a flat line.
    func aLargeDownloadReportsProgressAsItArrivesAndKeepsMemoryFlat() async throws {
        let size = 128 << 20
        try await withRunningServer { _, url in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-us-rss-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let destination = folder.appendingPathComponent("large.bin")
            let report = try await Self.run(["--server", url.absoluteString, "--path", "/debug/blobs/large?size=\(size)", "--to", destination.path])
            #expect(report["bytes"] == "\(size)")
            #expect(try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int == size)
            #expect(Int(report["early"] ?? "") ?? 0 > 10, "progress before the last byte: \(report)")
            #expect(Int(report["growth"] ?? "") ?? .max < 48 << 20, "resident memory growth: \(report)")
        }
    }

    @Test(.enabled(if: ResidentMemory.current() != nil, "resident memory is read from /proc on Linux"))
    func aHugeAnswerFailsAtTheDefaultLimitWithoutBeingHeld() async throws {
        try await withRunningServer { _, url in
            // Declared: refused with its head.
            let declared = try await Self.run(["--server", url.absoluteString, "--path", "/debug/blobs/huge?size=\(1 << 30)", "--fetch"])
            #expect(declared["error"] == "responseTooLarge")
            #expect(Int(declared["growth"] ?? "") ?? .max < 64 << 20, "\(declared)")
            // Not declared: stopped as it grows past the limit.
            let chunked = try await Self.run(["--server", url.absoluteString, "--path", "/debug/bytes?count=\(64 << 20)&chunked=1", "--fetch"])
            #expect(chunked["error"] == "responseTooLarge")
            #expect(Int(chunked["growth"] ?? "") ?? .max < 64 << 20, "\(chunked)")
        }
    }
}

@Suite("URLSession idle timeout beside the deadline")
struct URLSessionIdleTimeoutTests {
    /// swift-corelibs-foundation truncates `timeoutInterval` to whole seconds, and failed a
    /// request with less than a second left at once, before it was sent.
    @Test(arguments: [Duration.zero, .milliseconds(1), .milliseconds(400), .milliseconds(999), .milliseconds(1500), .seconds(60)])
    func theIdleTimeoutIsWholeSecondsPastTheDeadline(remaining: Duration) {
        let idle = URLSessionTransport.idleTimeout(forRemaining: remaining)
        #expect(idle >= 2)
        #expect(idle == idle.rounded(.down))
        #expect(Duration.seconds(idle) > remaining + .seconds(1))
    }
}
