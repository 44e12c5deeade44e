import Courier
import Crypto
import Foundation
import HTTPTypes
import Synchronization

/// A folder of its own under the temporary directory, removed afterwards.
func withTemporaryFolder<T>(_ body: (URL) async throws -> T) async throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-transfer-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
}

/// Lowercase hex SHA-256.
func sha256Hex(_ data: some DataProtocol) -> String {
    SHA256.hash(data: data).map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
}

/// The SHA-256 of a file, read a MB at a time.
func sha256Hex(ofFile url: URL) throws -> String {
    let handle = try FileHandle(forReadingFrom: url)
    defer { try? handle.close() }
    var hasher = SHA256()
    while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
        hasher.update(data: chunk)
    }
    return hasher.finalize().map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
}

/// `count` bytes of a pattern that never repeats at a power-of-two period.
func patternBytes(_ count: Int, seed: Int = 0) -> Data {
    Data((0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13 &+ seed &+ $0 / 251) })
}

/// Reads a transfer's progress to the end in a task of its own, keeping every value seen.
func collectProgress<Value: Sendable>(of transfer: Transfer<Value>) -> Task<[TransferProgress], Never> {
    Task {
        var seen: [TransferProgress] = []
        for await step in transfer.progress { seen.append(step) }
        return seen
    }
}

/// Whether a progress log only ever goes up, and ends with every byte of `total` done.
func isMonotonicAndComplete(_ log: [TransferProgress], total: Int64) -> Bool {
    guard let last = log.last, last.completedBytes == total, last.totalBytes == total else { return false }
    return zip(log, log.dropFirst()).allSatisfy { $0.completedBytes < $1.completedBytes }
}

/// A network middleware that keeps the header fields of every request it sees.
final class RequestHeaderLog: Sendable {
    private let seen = Mutex<[HTTPFields]>([])

    /// The headers of every attempt, in order.
    var requests: [HTTPFields] { seen.withLock { $0 } }

    /// The middleware to install as network middleware.
    var middleware: ClosureMiddleware {
        ClosureMiddleware { [self] request, body, context, next in
            seen.withLock { $0.append(request.headerFields) }
            return try await next(request, body, context)
        }
    }
}

/// A network middleware that holds a response body after its first chunk until the test
/// opens the gate, so a test can look at a transfer in the middle without racing it.
final class BodyGate: Sendable {
    private let paused: AsyncStream<Void>
    private let pausedContinuation: AsyncStream<Void>.Continuation
    private let opened: AsyncStream<Void>
    private let openedContinuation: AsyncStream<Void>.Continuation

    init() {
        (paused, pausedContinuation) = AsyncStream.makeStream(of: Void.self)
        (opened, openedContinuation) = AsyncStream.makeStream(of: Void.self)
    }

    /// Waits until a body has delivered its first chunk and is held.
    func waitUntilPaused() async {
        for await _ in paused { return }
    }

    /// Lets the held body continue.
    func open() {
        openedContinuation.finish()
    }

    /// The middleware to install as network middleware.
    var middleware: ClosureMiddleware {
        ClosureMiddleware { [self] request, body, context, next in
            let (response, responseBody) = try await next(request, body, context)
            guard let responseBody else { return (response, nil) }
            let gated = GatedChunks(base: responseBody, gate: self)
            return (response, HTTPBody(gated, length: responseBody.length, iterationBehavior: .single))
        }
    }

    fileprivate func hold() async {
        pausedContinuation.yield()
        for await _ in opened {}
    }
}

/// A body's chunks, held by a ``BodyGate`` after the first.
private struct GatedChunks: AsyncSequence, Sendable {
    typealias Element = Data
    let base: HTTPBody
    let gate: BodyGate

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: HTTPBody.Iterator
        let gate: BodyGate
        var delivered = 0

        mutating func next() async throws -> Data? {
            if delivered == 1 { await gate.hold() }
            delivered += 1
            return try await base.next()
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), gate: gate)
    }
}
