@testable import Courier
import Foundation
import Testing

@Suite("Bounded memory under hostile servers", .timeLimit(.minutes(2)))
struct HostileServerLimitsTests {
    private func bytes(_ count: Int, chunked: Bool) -> Request<Data> {
        Request(path: "/debug/bytes", query: [URLQueryItem(name: "count", value: "\(count)")] + (chunked ? [URLQueryItem(name: "chunked", value: "1")] : []))
    }

    @Test(arguments: TransportKind.allCases, [false, true])
    func aBodyPastMaxResponseBytesFailsWithResponseTooLargeOnEveryTransport(kind: TransportKind, chunked: Bool) async throws {
        try await withClient(kind, configure: { $0.maxResponseBytes = 1 << 20 }) { client, _ in
            let error = await courierError { _ = try await client.send(bytes(32 << 20, chunked: chunked)) }
            #expect(error?.code == .responseTooLarge, "\(kind), chunked: \(chunked)")
            // Under the limit the same route answers in full.
            let small = try await client.send(bytes(512 << 10, chunked: chunked))
            #expect(small.value.count == 512 << 10)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aHeadAnnouncingMoreThanTheLimitIsNotRefusedForABodyThatDoesNotCome(kind: TransportKind) async throws {
        try await withClient(kind, configure: { $0.maxResponseBytes = 1 << 20 }) { client, _ in
            var head = bytes(32 << 20, chunked: false)
            head.method = .head
            let response = try await client.send(head)
            #expect(response.value.isEmpty, "\(kind)")
            #expect(response.headers[.contentLength] == String(32 << 20), "\(kind)")
        }
    }

    @Test(arguments: TransportKind.allCases, [false, true])
    func aStreamedCallIsNotCutByTheDefaultLimitButByOneItSets(kind: TransportKind, chunked: Bool) async throws {
        try await withClient(kind, configure: { $0.maxResponseBytes = 1 << 20 }) { client, _ in
            let (_, body) = try await client.stream(bytes(2 << 20, chunked: chunked))
            #expect(try await body.collect(upTo: 4 << 20).count == 2 << 20, "the client's decode limit is not a stream's")
            var limited = bytes(2 << 20, chunked: chunked)
            limited.options.maxResponseBytes = 1 << 20
            let error = await courierError {
                let (_, body) = try await client.stream(limited)
                // The caller would read more: the limit it set is the transport's to enforce.
                _ = try await body.collect(upTo: 4 << 20)
            }
            #expect(error?.code == .responseTooLarge, "\(kind), chunked: \(chunked)")
        }
    }

    @Test(arguments: TransportKind.allCases, [false, true])
    func aDownloadPastItsCapFailsAndLeavesNoFile(kind: TransportKind, chunked: Bool) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-cap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withClient(kind) { client, _ in
            let destination = folder.appendingPathComponent("big.bin")
            let error = await courierError {
                _ = try await client.download(bytes(3 << 20, chunked: chunked), to: destination, options: DownloadOptions(maxBytes: 1 << 20)).value()
            }
            #expect(error?.code == .responseTooLarge, "\(kind), chunked: \(chunked)")
            #expect(!FileManager.default.fileExists(atPath: destination.path))
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(leftovers.isEmpty, "no partial file is kept: \(leftovers)")

            let fits = try await client.download(bytes(1 << 20, chunked: chunked), to: destination, options: DownloadOptions(maxBytes: 1 << 20)).value()
            #expect(fits.byteCount == 1 << 20, "a file of exactly the cap is accepted")
        }
    }

    @Test func theMemoryCacheKeepsAtMostItsVariantsPerKey() async throws {
        let storage = MemoryCacheStorage(maxVariantsPerKey: 4)
        let key = CacheKey(method: "GET", url: "https://api.example.test/items")
        for index in 0..<100 {
            let response = CachedResponse(
                status: 200, fields: [.init(name: "Vary", value: "X-Request-ID")], body: Data(count: 100),
                requestDate: Date(), responseDate: Date(), varyValues: ["x-request-id": "\(index)"]
            )
            try await storage.store(response, for: key)
        }
        let kept = try await storage.variants(for: key)
        #expect(kept.map { $0.varyValues["x-request-id"] ?? nil } == ["99", "98", "97", "96"], "the newest, newest first")
        #expect(storage.usage.entries == 4)
    }

    @Test func aKeyWhoseVariantsOutgrowTheByteBudgetLosesItsOldestNotTheBudget() async throws {
        let storage = MemoryCacheStorage(maxBytes: 10_000, maxEntries: 1_000, maxVariantsPerKey: 1_000)
        let key = CacheKey(method: "GET", url: "https://api.example.test/items")
        for index in 0..<200 {
            let response = CachedResponse(
                status: 200, fields: [], body: Data(count: 1_000),
                requestDate: Date(), responseDate: Date(), varyValues: ["x-request-id": "\(index)"]
            )
            try await storage.store(response, for: key)
            #expect(storage.usage.bytes <= 10_000)
        }
        let kept = try await storage.variants(for: key)
        #expect(kept.first?.varyValues["x-request-id"] == "199", "the variant just stored stays")
        #expect(kept.count <= 10)
    }
}
