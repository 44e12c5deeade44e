import Courier
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// One data task's response body, between URLSession's `didReceive data` callbacks and the
/// reader of the `HTTPBody` the transport returned.
///
/// Chunks wait in a buffer until they are read. The call's byte limit applies as they
/// arrive: past it the body fails with `CourierError.Code.responseTooLarge` and the
/// task is cancelled, so no more than the limit is ever held.
///
/// **Backpressure.** On Apple platforms, when more than ``highWaterBytes`` wait unread the
/// task is suspended, and resumed once the reader has brought them down to ``lowWaterBytes``.
/// swift-corelibs-foundation traps when a running data task is suspended
/// (`_NativeProtocol.stopLoading`), so on Linux the buffer is not bounded by the reader: it
/// holds what arrives faster than it is read. Waiting for the reader in the delegate call is no
/// way out there: swift-corelibs-foundation runs every session's work on one serial queue, so
/// that wait would stall every URLSession task in the process.
///
/// `Sendable` without `@unchecked`: a `final class` whose mutable state sits in one `Mutex`.
final class ResponseStream: Sendable {
    /// Unread bytes past which the task is suspended (Apple platforms).
    static let highWaterBytes = 1 << 20
    /// Unread bytes at or below which a suspended task is resumed.
    static let lowWaterBytes = 256 << 10

    private struct State {
        var chunks: [Data] = []
        var head = 0
        var bufferedBytes = 0
        var receivedBytes = 0
        /// How the body ended: `nil` while it is still arriving.
        var end: Result<Void, any Error>?
        var reader: UnsafeContinuation<Data?, any Error>?
        var suspended = false
    }

    private let state = Mutex(State())
    private let task: URLSessionDataTask
    /// The most body bytes the call accepts, or `nil`.
    let limit: Int?

    init(task: URLSessionDataTask, limit: Int?) {
        self.task = task
        self.limit = limit
    }

    // MARK: - From URLSession's callbacks

    /// A chunk arrived; returns `false` when it took the body past the limit (the caller then
    /// cancels the task).
    func append(_ data: Data) -> Bool {
        enum Step { case none, deliver(UnsafeContinuation<Data?, any Error>), fail(UnsafeContinuation<Data?, any Error>?) }
        let step: Step = state.withLock { state in
            guard state.end == nil else { return .none }
            state.receivedBytes += data.count
            if let limit, state.receivedBytes > limit {
                state.end = .failure(tooLarge)
                discardBuffer(&state)
                defer { state.reader = nil }
                return .fail(state.reader)
            }
            if let reader = state.reader {
                state.reader = nil
                return .deliver(reader)
            }
            state.chunks.append(data)
            state.bufferedBytes += data.count
            #if !canImport(FoundationNetworking)
            if !state.suspended, state.bufferedBytes > Self.highWaterBytes {
                // Under the lock, so that a reader's resume cannot overtake it.
                state.suspended = true
                task.suspend()
            }
            #endif
            return .none
        }
        switch step {
        case .none: return true
        case .deliver(let reader): reader.resume(returning: data); return true
        case .fail(let reader):
            reader?.resume(throwing: tooLarge)
            return false
        }
    }

    private var tooLarge: CourierError {
        CourierError(code: .responseTooLarge, message: "the response body grew past the limit of \(limit ?? 0) bytes as it arrived")
    }

    /// The body ended: completely (`nil`) or with `error`. Only the first end counts; returns
    /// whether this was it.
    @discardableResult
    func finish(_ error: (any Error)?) -> Bool {
        let (ended, reader): (Bool, UnsafeContinuation<Data?, any Error>?) = state.withLock { state in
            guard state.end == nil else { return (false, nil) }
            state.end = error.map { .failure($0) } ?? .success(())
            if error != nil { discardBuffer(&state) }
            // A waiting reader means the buffer is empty.
            defer { state.reader = nil }
            return (true, state.reader)
        }
        if let reader {
            if let error { reader.resume(throwing: error) } else { reader.resume(returning: nil) }
        }
        return ended
    }

    /// Ends the body with `error` and stops the task: the deadline passed, the reader was
    /// cancelled, or nobody holds the body any more.
    func abort(_ error: CourierError) {
        if finish(error) { task.cancelFromAnotherQueue() }
    }

    private func discardBuffer(_ state: inout State) {
        state.chunks = []
        state.head = 0
        state.bufferedBytes = 0
    }

    // MARK: - For the reader

    /// The next chunk, `nil` at the end; waits for one to arrive.
    func next() async throws -> Data? {
        if let ready = poll(parking: nil) { return try ready.get() }
        return try await withTaskCancellationHandler {
            // Resumed exactly once: here, or by whoever takes it from the state under the lock.
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Data?, any Error>) in
                if let ready = poll(parking: continuation) { continuation.resume(with: ready) }
            }
        } onCancel: {
            abort(CourierError(code: .cancelled, message: "reading the response body was cancelled"))
        }
    }

    /// Takes a buffered chunk, or the end; with neither there, parks `reader` (when given)
    /// until one comes, and returns `nil`. Resumes a suspended task once the buffer is low.
    private func poll(parking reader: UnsafeContinuation<Data?, any Error>?) -> Result<Data?, any Error>? {
        state.withLock { state in
            if let chunk = Self.pop(&state) {
                if state.suspended, state.bufferedBytes <= Self.lowWaterBytes {
                    // Under the lock, in order with the suspension; neither call waits.
                    state.suspended = false
                    task.resume()
                }
                return .success(chunk)
            }
            switch state.end {
            case .success: return .success(nil)
            case .failure(let error): return .failure(error)
            case nil:
                if let reader { state.reader = reader }
                return nil
            }
        }
    }

    private static func pop(_ state: inout State) -> Data? {
        guard state.head < state.chunks.count else { return nil }
        let chunk = state.chunks[state.head]
        state.chunks[state.head] = Data()
        state.head += 1
        state.bufferedBytes -= chunk.count
        if state.head == state.chunks.count {
            state.chunks.removeAll(keepingCapacity: true)
            state.head = 0
        }
        return chunk
    }
}

/// The `HTTPBody` chunks of a ``ResponseStream``, read once.
///
/// When the last copy of the body is released before it was read to the end, the task is
/// cancelled: an unread body does not go on downloading.
struct StreamedResponseChunks: AsyncSequence, Sendable {
    typealias Element = Data

    /// Cancels the task when the body is dropped unread.
    final class Owner: Sendable {
        let stream: ResponseStream
        init(_ stream: ResponseStream) { self.stream = stream }
        deinit { stream.abort(CourierError(code: .cancelled, message: "the response body was released before it was read")) }
    }

    let owner: Owner

    init(_ stream: ResponseStream) {
        owner = Owner(stream)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let owner: Owner
        mutating func next() async throws -> Data? {
            try await owner.stream.next()
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(owner: owner)
    }
}
