import Courier
import HTTPTypes
import NIOCore
import Synchronization

/// Witnesses whether AsyncHTTPClient ever began to read a request's body, which it does only
/// once the request's head has been handed to a connection: a request whose body was never
/// read never reached the server, whatever the engine then reports.
///
/// AsyncHTTPClient has races in which a request it was about to give a connection fails before
/// anything of it is written: the connection closed after a `GOAWAY` (`I/O on closed
/// channel` when the stream is made), or was already closing (`HTTPClientError.cancelled`).
/// Those errors are also thrown for requests that did go out, so by themselves they say
/// nothing. For a request that cannot otherwise be sent again (a POST or PATCH without an
/// idempotency key, see `RetryPolicy`), the transport hands AsyncHTTPClient its buffered body
/// as a one-chunk stream through this witness; when such a request fails and the body was
/// never asked for, the failure is marked ``CourierError/neverProcessed`` and the chain may
/// send it again. Other requests keep the plain buffer: a retry does not need the witness.
///
/// `Sendable` without `@unchecked`: the flag is an `Atomic`.
final class UnsentBodyWitness: Sendable {
    private let read = Atomic<Bool>(false)

    /// Whether the engine asked for the body's first chunk.
    var bodyWasRead: Bool { read.load(ordering: .acquiring) }

    /// A one-chunk body that tells this witness when the engine first asks for it.
    func body(_ buffer: ByteBuffer) -> Chunk { Chunk(buffer: buffer, witness: self) }

    /// Whether the request a failure ended is known not to have reached the server: its
    /// body was never read.
    func markingUnsent(_ error: any Error) -> any Error {
        guard !bodyWasRead, var failure = error as? CourierError, failure.code != .cancelled else { return error }
        failure.neverProcessed = true
        failure.failedBeforeResponse = true
        return failure
    }

    /// The body, as the one chunk AsyncHTTPClient reads.
    struct Chunk: AsyncSequence, Sendable {
        typealias Element = ByteBuffer
        let buffer: ByteBuffer
        let witness: UnsentBodyWitness

        struct AsyncIterator: AsyncIteratorProtocol {
            var buffer: ByteBuffer?
            let witness: UnsentBodyWitness

            mutating func next() async throws -> ByteBuffer? {
                witness.read.store(true, ordering: .releasing)
                defer { buffer = nil }
                return buffer
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(buffer: buffer, witness: witness) }
    }

    /// Whether a request needs a witness: only one the chain could not send again otherwise.
    static func isNeeded(for request: HTTPRequest) -> Bool {
        !RetryPolicy.idempotentMethods.contains(request.method) && !request.headerFields.contains(.idempotencyKey)
    }
}
