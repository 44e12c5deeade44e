public import Foundation
import Synchronization

/// The bytes of a request or response body, delivered as an asynchronous sequence of chunks.
///
/// A body knows two things every stage of the chain needs:
/// - its ``length``, when known up front (it becomes `Content-Length`);
/// - its ``iterationBehavior``: whether it can be read more than once. Retry, redirects,
///   the authentication replay and the offline queue only resend bodies that are
///   ``IterationBehavior/multiple``.
///
/// A single-use body that is iterated twice throws ``HTTPBody/AlreadyConsumedError``
/// instead of silently sending nothing.
///
/// ```swift
/// let fixed = HTTPBody(Data("hello".utf8))           // replayable
/// let streamed = HTTPBody(stream, length: .known(5_242_880)) // single-use
/// let bytes = try await streamed.collect(upTo: 8 << 20)
/// ```
public struct HTTPBody: AsyncSequence, Sendable {
    /// One chunk of the body.
    public typealias Element = Data
    /// The error type of iteration: any error the underlying source throws.
    public typealias Failure = any Error

    /// Whether the body is known to have a given number of bytes.
    public enum Length: Sendable, Hashable {
        /// The length is not known until the body has been read.
        case unknown
        /// The body has exactly this many bytes.
        case known(Int64)
    }

    /// Whether a body can be iterated more than once.
    public enum IterationBehavior: Sendable, Hashable {
        /// The body can be read once; a second read throws ``HTTPBody/AlreadyConsumedError``.
        case single
        /// The body can be read any number of times (for example, bytes in memory).
        case multiple
    }

    /// Thrown when a single-use body is iterated a second time.
    public struct AlreadyConsumedError: Error, CustomStringConvertible, Sendable {
        /// A description for logs.
        public var description: String { "a single-use HTTP body was iterated more than once" }
    }

    /// Thrown by ``collect(upTo:)`` when the body holds more bytes than allowed.
    public struct TooManyBytesError: Error, CustomStringConvertible, Sendable {
        /// The limit that was exceeded.
        public let maxBytes: Int
        /// A description for logs.
        public var description: String { "the body exceeded the limit of \(maxBytes) bytes" }
    }

    private enum Source: Sendable {
        case buffer(Data)
        case sequence(@Sendable () -> any ErasedIterator)
    }

    /// The body in two words: the bytes of the common in-memory body, or a shared object with
    /// the rest. Every stage of the chain returns `(HTTPResponse, HTTPBody?)`, which at four
    /// words comes back in registers and keeps async frames small (with the fields inline it
    /// took ten, returned through memory and copied at every stage).
    private enum Representation: Sendable {
        /// Bytes in memory, with no file behind them: known length, any number of reads.
        case buffer(Data)
        /// Anything else.
        case stream(Stream)
    }

    /// What a body that is not plain bytes in memory is made of, shared by its copies (which
    /// share whether a single-use body was read, too).
    ///
    /// A `final class` of `let`s and a `Mutex`, which make it `Sendable`.
    private final class Stream: Sendable {
        let source: Source
        let length: Length
        let iterationBehavior: IterationBehavior
        let fileSource: FileSource?
        /// Whether a single-use body was iterated.
        private let used = Mutex(false)

        init(source: Source, length: Length, iterationBehavior: IterationBehavior, fileSource: FileSource?) {
            self.source = source
            self.length = length
            self.iterationBehavior = iterationBehavior
            self.fileSource = fileSource
        }

        /// Marks a single-use body read; `false` when it was read before. A replayable body
        /// is never used up.
        func markUsed() -> Bool {
            guard iterationBehavior == .single else { return true }
            return used.withLock { used in
                defer { used = true }
                return !used
            }
        }
    }

    private var representation: Representation

    /// The body's length, when known.
    public var length: Length {
        switch representation {
        case .buffer(let data): .known(Int64(data.count))
        case .stream(let stream): stream.length
        }
    }

    /// Whether the body can be iterated more than once.
    public var iterationBehavior: IterationBehavior {
        switch representation {
        case .buffer: .multiple
        case .stream(let stream): stream.iterationBehavior
        }
    }

    /// The file a body is the whole of, for engines that send a file from disk themselves.
    package struct FileSource: Sendable {
        /// The file.
        package let url: URL
        /// Told the running total of bytes an engine sent from the file itself, so that
        /// upload progress moves as it does when the chunks are iterated; `nil` when nobody
        /// counts them.
        package let sentBytes: (@Sendable (Int64) -> Void)?

        package init(url: URL, sentBytes: (@Sendable (Int64) -> Void)? = nil) {
            self.url = url
            self.sentBytes = sentBytes
        }
    }

    /// Set when the body is a whole file (``RequestBody/file(_:contentType:chunkSize:)``): an
    /// engine such as URLSession may upload the file from disk instead of iterating the chunks.
    /// Iterating the body gives the same bytes either way. Set it where the body is made:
    /// setting it makes a new shared part, so a single-use body's record of being read
    /// starts afresh.
    package var fileSource: FileSource? {
        get {
            if case .stream(let stream) = representation { return stream.fileSource }
            return nil
        }
        set {
            switch representation {
            case .buffer(let data):
                guard let newValue else { return }
                representation = .stream(Stream(source: .buffer(data), length: length, iterationBehavior: .multiple, fileSource: newValue))
            case .stream(let stream):
                representation = .stream(Stream(
                    source: stream.source, length: stream.length, iterationBehavior: stream.iterationBehavior, fileSource: newValue
                ))
            }
        }
    }

    /// A body of bytes held in memory. It can be read any number of times.
    /// - Parameter data: The body's bytes.
    public init(_ data: Data) {
        self.representation = .buffer(data)
    }

    /// A body of UTF-8 text held in memory.
    /// - Parameter string: The text.
    public init(_ string: String) {
        self.init(Data(string.utf8))
    }

    /// A body read from an asynchronous sequence of chunks.
    /// - Parameters:
    ///   - sequence: The chunks, in order.
    ///   - length: The total length, when known.
    ///   - iterationBehavior: `.multiple` only if iterating `sequence` again yields the same bytes.
    public init<Chunks: AsyncSequence & Sendable>(
        _ sequence: Chunks,
        length: Length = .unknown,
        iterationBehavior: IterationBehavior = .single
    ) where Chunks.Element == Data {
        self.representation = .stream(Stream(
            source: .sequence { ConcreteIterator(sequence.makeAsyncIterator()) },
            length: length,
            iterationBehavior: iterationBehavior,
            fileSource: nil
        ))
    }

    /// The bytes, when the body is held in memory; `nil` for streamed bodies.
    ///
    /// Transports use this to send a fixed body without iterating it.
    public var bufferedData: Data? {
        switch representation {
        case .buffer(let data): return data
        case .stream(let stream):
            if case .buffer(let data) = stream.source { return data }
            return nil
        }
    }

    /// Whether the body may be sent again by retry, redirect or replay.
    public var isReplayable: Bool { iterationBehavior == .multiple }

    /// Makes an iterator over the body's chunks.
    ///
    /// For a single-use body, the second iterator throws ``AlreadyConsumedError`` on first use.
    public func makeAsyncIterator() -> Iterator {
        switch representation {
        case .buffer(let data):
            return Iterator(state: .buffer(data.isEmpty ? nil : data))
        case .stream(let stream):
            guard stream.markUsed() else { return Iterator(state: .failed(AlreadyConsumedError())) }
            switch stream.source {
            case .buffer(let data):
                return Iterator(state: .buffer(data.isEmpty ? nil : data))
            case .sequence(let makeIterator):
                return Iterator(state: .sequence(makeIterator()))
            }
        }
    }

    /// Reads the whole body into memory.
    /// - Parameter maxBytes: The most bytes accepted.
    /// - Returns: All the body's bytes.
    /// - Throws: ``TooManyBytesError`` past `maxBytes` (checked against a known length before
    ///   anything is read), ``AlreadyConsumedError``, or the source's error.
    public func collect(upTo maxBytes: Int) async throws -> Data {
        if case .known(let count) = length, count > Int64(maxBytes) {
            throw TooManyBytesError(maxBytes: maxBytes)
        }
        if let data = bufferedData, iterationBehavior == .multiple {
            return data
        }
        var iterator = makeAsyncIterator()
        // A body that arrives in one chunk (most small responses) is that chunk: no copy.
        guard var result = try await iterator.next() else { return Data() }
        if result.count > maxBytes { throw TooManyBytesError(maxBytes: maxBytes) }
        // A slice keeps its parent's indices; callers expect a body that starts at zero.
        if result.startIndex != 0 { result = Data(result) }
        var reserved = false
        while let chunk = try await iterator.next() {
            if result.count + chunk.count > maxBytes {
                throw TooManyBytesError(maxBytes: maxBytes)
            }
            if !reserved, case .known(let count) = length {
                result.reserveCapacity(Int(Swift.min(count, Int64(maxBytes))))
                reserved = true
            }
            result.append(chunk)
        }
        return result
    }

    /// The whole body, when it is already in memory: what ``collect(upTo:)`` would return,
    /// without a suspension. `nil` when the body has to be read.
    /// - Parameter maxBytes: The most bytes to accept.
    /// - Throws: ``TooManyBytesError`` past `maxBytes`.
    func collectedIfBuffered(upTo maxBytes: Int) throws -> Data? {
        guard let data = bufferedData, iterationBehavior == .multiple else { return nil }
        if data.count > maxBytes { throw TooManyBytesError(maxBytes: maxBytes) }
        return data
    }

    /// Reads at most `maxBytes` from the start of the body, ignoring errors: for error
    /// reports, where a partial body is better than none.
    /// - Parameter maxBytes: The most bytes read.
    /// - Returns: The bytes read before the limit, the end, or an error.
    public func prefix(upTo maxBytes: Int) async -> Data {
        var result = Data()
        do {
            for try await chunk in self {
                result.append(chunk.prefix(maxBytes - result.count))
                if result.count >= maxBytes { break }
            }
        } catch {
            return result
        }
        return result
    }

    /// An iterator over a body's chunks.
    public struct Iterator: AsyncIteratorProtocol {
        fileprivate enum State {
            case buffer(Data?)
            case sequence(any ErasedIterator)
            case failed(any Error)
            case finished
        }

        fileprivate var state: State

        /// The next chunk, or `nil` at the end of the body.
        public mutating func next() async throws -> Data? {
            switch state {
            case .buffer(let data):
                state = .finished
                return data
            case .sequence(let iterator):
                let chunk = try await iterator.next()
                if chunk == nil { state = .finished }
                return chunk
            case .failed(let error):
                state = .finished
                throw error
            case .finished:
                return nil
            }
        }
    }
}

/// An async iterator over chunks, type-erased behind a class so ``HTTPBody/Iterator`` stays
/// a value.
///
/// An iterator is used by one task at a time, as `AsyncIteratorProtocol` requires; it is not
/// `Sendable` and never crosses tasks.
fileprivate protocol ErasedIterator: AnyObject {
    func next() async throws -> Data?
}

/// The iterator of one kind of chunk sequence, held in place (one allocation per iteration).
fileprivate final class ConcreteIterator<Base: AsyncIteratorProtocol>: ErasedIterator where Base.Element == Data {
    private var base: Base

    init(_ base: Base) {
        self.base = base
    }

    func next() async throws -> Data? {
        try await base.next()
    }
}

extension HTTPBody: ExpressibleByStringLiteral {
    /// A body of UTF-8 text, written as a literal.
    public init(stringLiteral value: String) {
        self.init(value)
    }
}
