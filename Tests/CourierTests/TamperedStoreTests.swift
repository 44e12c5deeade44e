@testable import Courier
@testable import CourierSQLite
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// A store that hands back what it holds with a field changed, as a damaged or edited file would.
private final class TamperingStorage: CacheStorage {
    let inner = MemoryCacheStorage()
    let tamper: @Sendable (inout CachedResponse) -> Void

    init(tamper: @escaping @Sendable (inout CachedResponse) -> Void) {
        self.tamper = tamper
    }

    func variants(for key: CacheKey) async throws -> [CachedResponse] {
        try await inner.variants(for: key).map { stored in
            var damaged = stored
            tamper(&damaged)
            return damaged
        }
    }

    func store(_ response: CachedResponse, for key: CacheKey) async throws { try await inner.store(response, for: key) }
    func remove(_ key: CacheKey) async throws { try await inner.remove(key) }
    func removeAll(partition: String?) async throws { try await inner.removeAll(partition: partition) }
    func removeAll(under prefix: String) async throws { try await inner.removeAll(under: prefix) }
}

@Suite("Damaged stores never make Courier trap")
struct TamperedStoreTests {
    private let base = URL(string: "https://api.example.test")!
    private let stamp = Date(timeIntervalSince1970: 1_800_000_000)

    private func response(status: Int = 200, requestDate: Date? = nil, responseDate: Date? = nil) -> CachedResponse {
        CachedResponse(
            status: status, fields: [.init(name: "Cache-Control", value: "max-age=600")], body: Data("{}".utf8),
            requestDate: requestDate ?? stamp, responseDate: responseDate ?? stamp
        )
    }

    @Test(arguments: [
        (1_000, 0.0), (42, 0.0), (-1, 0.0), (200, 1e300), (200, -1e300), (200, 1e12),
    ])
    func aStoredEntryWithAnImpossibleStatusOrDateIsAMissAndTheNetworkAnswers(status: Int, dateOffset: Double) async throws {
        let storage = TamperingStorage { entry in
            entry.status = status
            entry.responseDate = Date(timeIntervalSinceReferenceDate: dateOffset == 0 ? entry.responseDate.timeIntervalSinceReferenceDate : dateOffset)
        }
        let transport = MockTransport(always: {
            var answer = MockResponse.json(#"{"v":1}"#)
            answer.headers[.cacheControl] = "max-age=600"
            return answer
        }())
        let client = APIClient(
            configuration: ClientConfiguration(baseURL: base, cache: HTTPCache(storage: storage), retryPolicy: .none),
            transport: transport
        )
        _ = try await client.send(Request<Data>(path: "/items"))
        let second = try await client.send(Request<Data>(path: "/items"))
        #expect(second.metrics.cacheStatus != .hit, "the damaged entry was not served")
        #expect(transport.requests.count == 2, "the network answered instead")
    }

    @Test func anAgeBeyondWhatAnAgeHeaderHoldsIsSentAsTheRFCsCeiling() {
        #expect(Freshness.ageHeaderValue(1e300) == "2147483648")
        #expect(Freshness.ageHeaderValue(.infinity) == "0", "not a number of seconds anyone could have waited")
        #expect(Freshness.ageHeaderValue(.nan) == "0")
        #expect(Freshness.ageHeaderValue(-5) == "0")
        #expect(Freshness.ageHeaderValue(59.9) == "59")
    }

    @Test func aDecodedEntryWithAnImpossibleStatusIsRefused() throws {
        let good = try JSONEncoder().encode(response())
        #expect(try JSONDecoder().decode(CachedResponse.self, from: good) == response())
        for damaged in [response(status: 1_000), response(status: 99), response(responseDate: Date(timeIntervalSinceReferenceDate: 1e200))] {
            let data = try JSONEncoder().encode(damaged)
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(CachedResponse.self, from: data) }
        }
    }

    @Test func aSQLiteRowWithAnImpossibleStatusOrDateIsDroppedNotServed() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("courier-tamper-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let storage = try SQLiteCacheStorage(url: root.appendingPathComponent("responses.sqlite"))
        let key = CacheKey(method: "GET", url: "https://api.example.test/items")
        for damaged in [response(status: 1_000), response(status: 0), response(requestDate: Date(timeIntervalSinceReferenceDate: -1e300))] {
            try await storage.store(response(), for: key)
            #expect(try await storage.variants(for: key).count == 1)
            let bytes = VariantPayload(key: key, response: damaged).encoded()
            try await storage.executeRawSQL("UPDATE variant SET payload = X'\(bytes.map { String(format: "%02x", $0) }.joined())'")
            #expect(try await storage.variants(for: key).isEmpty, "status \(damaged.status) was read as a miss")
            #expect(try storage.usage.entries == 0, "and the row was deleted")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aQueueRowWithAnAbsurdRetryDateAndAttemptCountIsDeliveredNotATrap() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("courier-tamper-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let storage = try SQLiteQueueStorage(url: root.appendingPathComponent("queue.sqlite"))
        let queue = OfflineQueue(storage: storage, maxAttempts: 3)
        try await storage.append(QueuedRequest(
            queue: "default", method: "POST", url: "https://api.example.test/items", fields: [], body: Data("{}".utf8),
            idempotencyKey: "k-1", createdAt: stamp
        ))
        try await storage.executeRawSQL("UPDATE queued_write SET next_attempt_at = 1e300, attempts = 9223372036854775807, created_at = 'not a date'")
        let read = try #require(try await storage.items().first)
        #expect(read.nextAttemptAt == Date(timeIntervalSince1970: 0), "an impossible date reads as due now")
        #expect(read.createdAt == Date(timeIntervalSince1970: 0))

        let transport = MockTransport(always: .status(.created))
        var configuration = ClientConfiguration(baseURL: base, retryPolicy: .none)
        configuration.offlineQueue = queue
        let events = queue.events()
        // Making the client attaches the queue, whose start-up round delivers what is due.
        let client = APIClient(configuration: configuration, transport: transport)
        for await event in events {
            if case .delivered = event { break }
        }
        #expect(try await queue.pending().isEmpty, "delivered")
        #expect(transport.requests.count == 1)
        _ = client
    }

    @Test func aBackoffAfterAnAbsurdNumberOfAttemptsIsTheCapNotATrap() {
        let linear = Backoff(.linear(initial: .seconds(1), increment: .seconds(1)), maxDelay: .seconds(30), jitter: .none)
        #expect(linear.baseDelay(afterFailedAttempts: .max) == .seconds(30))
        let exponential = Backoff(.exponential(base: .seconds(1), multiplier: 2), maxDelay: .seconds(30), jitter: .none)
        #expect(exponential.baseDelay(afterFailedAttempts: .max) == .seconds(30))
        #expect(Duration.clampedSeconds(.infinity) == Duration.longestScheduledWait)
        #expect(Duration.clampedSeconds(.nan) == .zero)
        #expect(Duration.clampedSeconds(1e300) == Duration.longestScheduledWait)
        #expect(Duration.clampedSeconds(1.5) == .milliseconds(1_500))
    }
}
