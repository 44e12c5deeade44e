import AsyncHTTPClient
import Benchmark
import Courier
import CourierAsyncHTTPClient
import CourierSQLite
import CourierTesting
import CourierURLSession
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReferenceServer

/// What `/debug/ping` answers, decoded by every contender with a decoder it reuses.
struct Ping: Decodable, Sendable { var ok: Bool }

/// Allocations counted for each operation: the malloc calls of the whole process while it
/// runs, so a request over loopback counts the in-process reference server's too; raw and
/// Courier pay that part alike, and the difference between them is the chain's. Time is not
/// measured here (`courier bench` does that): it moves with the machine, counts barely do.
///
/// Only the loop over `scaledIterations` is measured (`startMeasurement` and `stopMeasurement`
/// around it). With `scalingFactor: .one` each sample is one operation, and the benchmark tool
/// runs each sample in a task of its own, as an app calling from a fresh task would: the
/// async frames of that one call count. Clients, sessions and warm caches are made once per
/// benchmark and shared by its samples (`Once`), as an app shares one client: making a
/// client, its first connection and a cache's first fill are set-up, not the operation, for
/// every contender alike.
///
/// `tolerance` is how far above its committed threshold an operation's p90 count may go
/// before `scripts/benchmarks.sh` fails: a little for in-memory work, more where a pool, the
/// engine's threads or SQLite make the count move from run to run.
private func counts(tolerance: Int) -> Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.mallocCountTotal],
        warmupIterations: 50,
        scalingFactor: .one,
        maxDuration: .seconds(3),
        maxIterations: 2_000,
        thresholds: [.mallocCountTotal: BenchmarkThresholds(absolute: [.p90: tolerance])]
    )
}

// Names are file names too: each benchmark's threshold is Thresholds/CourierAllocations.NAME.p90.json,
// and the benchmark tool looks for exactly that name when it checks.
let benchmarks: @Sendable () -> Void = {
    loopbackBenchmarks()
    localBenchmarks()
}

// MARK: - One GET over loopback

private func loopbackBenchmarks() {
    let server = ReferenceServer(configuration: {
        var configuration = ReferenceServerConfiguration()
        configuration.enablesDebugRoutes = true
        return configuration
    }())
    let started = Started(server)
    let decoder = JSONDecoder()

    Benchmark("GET_raw_AsyncHTTPClient", configuration: counts(tolerance: 8)) { benchmark in
        let url = try await started.url()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url.absoluteString + "/debug/ping"), timeout: .seconds(10))
            let body = try await response.body.collect(upTo: 1 << 20)
            blackHole(try decoder.decode(Ping.self, from: Data(buffer: body)))
        }
        benchmark.stopMeasurement()
    }

    // The four fields Courier's default chain sends on AsyncHTTPClient (`Accept-Encoding` too,
    // since that transport decodes), so the server's work on them, which counts here too, is
    // the same on both sides.
    Benchmark("GET_raw_AsyncHTTPClient_Courier_headers", configuration: counts(tolerance: 8)) { benchmark in
        let url = try await started.url()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            var request = HTTPClientRequest(url: url.absoluteString + "/debug/ping")
            request.headers.add(name: "Accept", value: "application/json")
            request.headers.add(name: "User-Agent", value: DefaultHeadersMiddleware.defaultUserAgent)
            request.headers.add(name: "X-Request-ID", value: RequestContext.makeRequestID())
            request.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
            let body = try await response.body.collect(upTo: 1 << 20)
            blackHole(try decoder.decode(Ping.self, from: Data(buffer: body)))
        }
        benchmark.stopMeasurement()
    }

    let courierOnAsyncHTTPClient = Once<APIClient>()
    Benchmark("GET_Courier_AsyncHTTPClient", configuration: counts(tolerance: 8)) { benchmark in
        let client = try await courierOnAsyncHTTPClient.value {
            // The transport owns its client (it never takes one made elsewhere, whose redirect
            // setting it could not read), on the same event loops as raw's `HTTPClient.shared`.
            APIClient(
                baseURL: try await started.url(),
                transport: AsyncHTTPClientTransport(clientConfiguration: HTTPClient.Configuration(), eventLoopGroup: HTTPClient.shared.eventLoopGroup)
            )
        }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try await client.value(for: Request<Ping>(path: "/debug/ping")))
        }
        benchmark.stopMeasurement()
    }

    // One session per contender for the whole run, as an app keeps one; the process ends it.
    let rawSession = Once<URLSession>()
    Benchmark("GET_raw_URLSession", configuration: counts(tolerance: 40)) { benchmark in
        let session = try await rawSession.value { URLSession(configuration: .ephemeral) }
        let request = URLRequest(url: try await started.url().appendingPathComponent("debug/ping"))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try decoder.decode(Ping.self, from: try await fetch(request, in: session)))
        }
        benchmark.stopMeasurement()
    }

    let rawSessionWithHeaders = Once<URLSession>()
    Benchmark("GET_raw_URLSession_Courier_headers", configuration: counts(tolerance: 40)) { benchmark in
        let session = try await rawSessionWithHeaders.value { URLSession(configuration: .ephemeral) }
        let url = try await started.url().appendingPathComponent("debug/ping")
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            // The four fields Courier's default chain sends, set in one step as its transport sets them.
            var request = URLRequest(url: url)
            request.allHTTPHeaderFields = [
                "Accept": "application/json",
                "User-Agent": DefaultHeadersMiddleware.defaultUserAgent,
                "X-Request-ID": RequestContext.makeRequestID(),
                "Accept-Encoding": "gzip, deflate",
            ]
            blackHole(try decoder.decode(Ping.self, from: try await fetch(request, in: session)))
        }
        benchmark.stopMeasurement()
    }

    let courierOnURLSession = Once<APIClient>()
    Benchmark("GET_Courier_URLSession", configuration: counts(tolerance: 40)) { benchmark in
        let client = try await courierOnURLSession.value {
            APIClient(baseURL: try await started.url(), transport: URLSessionTransport(configuration: .ephemeral))
        }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try await client.value(for: Request<Ping>(path: "/debug/ping")))
        }
        benchmark.stopMeasurement()
    }
}

/// Raw URLSession as a careful user calls it: one data task, its bytes handed back.
private func fetch(_ request: URLRequest, in session: URLSession) async throws -> Data {
    try await withCheckedThrowingContinuation { continuation in
        session.dataTask(with: request) { data, _, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: data ?? Data()) }
        }.resume()
    }
}

/// Starts the server once, on first use, and keeps it for the run.
private actor Started {
    let server: ReferenceServer
    var base: URL?

    init(_ server: ReferenceServer) {
        self.server = server
    }

    func url() async throws -> URL {
        if let base { return base }
        let url = try await server.start()
        base = url
        return url
    }
}

// MARK: - No network

private func localBenchmarks() {
    let ping = MockResponse(status: .ok, headers: [.contentType: "application/json"], body: Data(#"{"ok":true}"#.utf8))
    let cached = MockResponse(
        status: .ok,
        headers: [.contentType: "application/json", .cacheControl: "max-age=86400"],
        body: Data(#"{"ok":true}"#.utf8)
    )
    let base = URL(string: "http://127.0.0.1:1")!

    let mockClient = APIClient(baseURL: base, transport: MockTransport(always: ping))
    Benchmark("Chain_mock_transport", configuration: counts(tolerance: 2)) { benchmark in
        let client = mockClient
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try await client.value(for: Request<Ping>(path: "/debug/ping")))
        }
        benchmark.stopMeasurement()
    }

    let memoryCached = Once<APIClient>()
    Benchmark("Memory_cache_hit", configuration: counts(tolerance: 2)) { benchmark in
        let client = try await memoryCached.value {
            let client = makeClient(MockTransport(always: cached)) { configuration in
                configuration.cache = HTTPCache(storage: MemoryCacheStorage())
            }
            _ = try await client.value(for: Request<Ping>(path: "/cached"))
            return client
        }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try await client.value(for: Request<Ping>(path: "/cached")))
        }
        benchmark.stopMeasurement()
    }

    let diskCacheFolder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-benchmarks-\(UUID().uuidString)")
    let diskCached = Once<APIClient>()
    Benchmark("Disk_cache_hit", configuration: counts(tolerance: 50), closure: { benchmark in
        let client = try await diskCached.value {
            try FileManager.default.createDirectory(at: diskCacheFolder, withIntermediateDirectories: true)
            let storage = try SQLiteCacheStorage(url: diskCacheFolder.appendingPathComponent("cache.sqlite"))
            let client = makeClient(MockTransport(always: cached)) { configuration in
                configuration.cache = HTTPCache(storage: storage)
            }
            _ = try await client.value(for: Request<Ping>(path: "/cached"))
            return client
        }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try await client.value(for: Request<Ping>(path: "/cached")))
        }
        benchmark.stopMeasurement()
    }, teardown: {
        try? FileManager.default.removeItem(at: diskCacheFolder)
    })

    Benchmark("Offline_enqueue", configuration: counts(tolerance: 800)) { benchmark in
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = OfflineQueue(storage: try SQLiteQueueStorage(url: folder.appendingPathComponent("queue.sqlite")))
        let offline = MockTransport { _, _ in throw CourierError(code: .offline, message: "offline") }
        let client = makeClient(offline) { configuration in
            configuration.offlineQueue = queue
            configuration.retryPolicy = RetryPolicy(maxAttempts: 1)
        }
        let body = RequestBody.json(["title": "benchmark"])
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let request = Request<Void>(method: .post, path: "/api/radars", body: body, options: RequestOptions(isQueueable: true, idempotencyKey: UUID().uuidString))
            blackHole(try await client.sendOrQueue(request))
        }
        benchmark.stopMeasurement()
    }

    Benchmark("Parse_Cache-Control", configuration: counts(tolerance: 0)) { benchmark in
        let value = ["private, max-age=600, stale-while-revalidate=30, must-revalidate"]
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(CacheControl(value))
        }
        benchmark.stopMeasurement()
    }

    Benchmark("Parse_Retry-After", configuration: counts(tolerance: 0)) { benchmark in
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(RetryAfter.parse("Wed, 15 Nov 2023 22:13:50 GMT", now: now))
            blackHole(RetryAfter.parse("120", now: now))
        }
        benchmark.stopMeasurement()
    }
}

/// A client on `transport` for `http://127.0.0.1:1`, configured by `configure`.
private func makeClient(_ transport: any Transport, configure: (inout ClientConfiguration) -> Void) -> APIClient {
    var configuration = ClientConfiguration(baseURL: URL(string: "http://127.0.0.1:1")!)
    configure(&configuration)
    return APIClient(configuration: configuration, transport: transport)
}

private func temporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-benchmarks-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// A value made on first use and shared by every sample of a benchmark after it.
private actor Once<Value: Sendable> {
    private var made: Value?

    func value(_ make: () async throws -> Value) async throws -> Value {
        if let made { return made }
        let value = try await make()
        made = value
        return value
    }
}
