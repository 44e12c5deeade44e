public import Courier
import Foundation
import HTTPTypes
public import Logging
import Synchronization

/// A Server-Sent Events client on an `APIClient`: it reads the streamed body of one
/// GET as events, and reconnects when the stream ends or fails, sending `Last-Event-ID` so
/// that the server resumes where it left off.
///
/// The requests go through the client's chain, so they are signed (and a 401 renews the
/// credential) like any other; the source does its own reconnecting, so the chain's retry is
/// off for them.
///
/// - The wait before a reconnect is the stream's `retry:` when it sent one, else
///   ``Configuration/defaultRetry``; failures in a row (without an event between them) grow
///   it with ``Configuration/backoff``.
/// - A 204, or a 4xx other than 408 and 429, ends the stream with the error: the server
///   said not to come back.
/// - A line or an event over ``Configuration/limits`` ends the stream with a
///   `CourierError` of code `CourierError.Code.responseTooLarge`, and a
///   TLS failure with `CourierError.Code.tlsFailure`: coming back would meet the
///   same. A `retry:` over ``ServerSentEventLimits/maxRetry`` is clamped to it.
///
/// ```swift
/// let source = ServerSentEventSource(client: client, path: "/api/radars/r_1/events")
/// for try await event in source.events() {
///     print(event.id ?? "-", event.event, event.data)
/// }
/// ```
public final class ServerSentEventSource: Sendable {
    /// How the source connects and reconnects.
    public struct Configuration: Sendable {
        /// The wait before reconnecting until the stream sends `retry:`.
        public var defaultRetry: Duration
        /// Grows the wait when attempts fail in a row.
        public var backoff: Backoff
        /// How many reconnects may fail in a row before the stream ends with the error;
        /// `nil` for no limit.
        public var maxReconnectAttempts: Int?
        /// How long one connection may stay open before it is ended and resumed (the
        /// transport's timeout bounds reading the body).
        public var connectionLifetime: Duration
        /// The longest line, the largest event and the longest `retry:` accepted from the
        /// server; see ``ServerSentEventLimits``.
        public var limits: ServerSentEventLimits

        /// Makes a configuration.
        /// - Parameters:
        ///   - defaultRetry: 3 seconds by default, as browsers do.
        ///   - backoff: Exponential from 1 s to 30 s by default.
        ///   - maxReconnectAttempts: No limit by default.
        ///   - connectionLifetime: One hour by default.
        ///   - limits: Lines up to 64 KiB, events up to 1 MiB, `retry:` up to one hour by default.
        public init(
            defaultRetry: Duration = .seconds(3),
            backoff: Backoff = .exponential(base: .seconds(1), maxDelay: .seconds(30)),
            maxReconnectAttempts: Int? = nil,
            connectionLifetime: Duration = .seconds(3_600),
            limits: ServerSentEventLimits = ServerSentEventLimits()
        ) {
            self.defaultRetry = defaultRetry
            self.backoff = backoff
            self.maxReconnectAttempts = maxReconnectAttempts
            self.connectionLifetime = connectionLifetime
            self.limits = limits
        }
    }

    private struct State: Sendable {
        var lastEventID = ""
        var connections = 0
    }

    private let client: APIClient
    private let request: Request<Data>
    private let configuration: Configuration
    private let clock: any CourierClock
    private let logger: Logger
    private let state = Mutex(State())

    /// Makes a source.
    /// - Parameters:
    ///   - client: The client whose chain and transport carry the stream.
    ///   - path: The stream's path, relative to the client's base URL.
    ///   - lastEventID: The ID to resume after, from an earlier session; `nil` for the start.
    ///   - configuration: Reconnect waits and limits.
    ///   - clock: Times the reconnect waits.
    ///   - logger: For reconnects.
    public init(
        client: APIClient,
        path: String,
        lastEventID: String? = nil,
        configuration: Configuration = Configuration(),
        clock: any CourierClock = SystemClock(),
        logger: Logger = Logger(label: "courier.sse")
    ) {
        var request = Request<Data>(path: path, name: "sse.stream")
        request.headers[.accept] = "text/event-stream"
        request.headers[.cacheControl] = "no-cache"
        request.options.retryPolicy = RetryPolicy.none
        request.options.deduplicates = false
        request.options.timeout = configuration.connectionLifetime
        self.client = client
        self.request = request
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        self.state.withLock { $0.lastEventID = lastEventID ?? "" }
    }

    /// The last event ID received: what the next connection sends as `Last-Event-ID`.
    public var lastEventID: String? {
        let id = state.withLock { $0.lastEventID }
        return id.isEmpty ? nil : id
    }

    /// How many connections the source has opened so far.
    public var connectionCount: Int {
        state.withLock { $0.connections }
    }

    /// The events, across reconnects. The stream ends with an error when the server says not
    /// to come back, sends more than ``Configuration/limits`` allow, fails TLS, or too many
    /// reconnects fail; stop reading (or cancel the task) to end it.
    public func events() -> AsyncThrowingStream<ServerSentEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: ServerSentEvent.self)
        let task = Task {
            do {
                try await self.pump(into: continuation)
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func pump(into continuation: AsyncThrowingStream<ServerSentEvent, any Error>.Continuation) async throws {
        var retry = configuration.defaultRetry
        var failures = 0
        var random = SystemRandomNumberGenerator()
        while !Task.isCancelled {
            var receivedEvent = false
            do {
                try await readOneConnection(retry: &retry, receivedEvent: &receivedEvent, into: continuation)
            } catch let error as CourierError where Self.isFinal(error) {
                throw error
            } catch {
                if Task.isCancelled { return }
                logger.debug("event stream failed; reconnecting", metadata: ["error": "\((error as? CourierError)?.message ?? "\(error)")"])
            }
            failures = receivedEvent ? 1 : failures + 1
            if let limit = configuration.maxReconnectAttempts, failures > limit {
                throw CourierError(code: .connectionLost, message: "the event stream failed \(failures) times in a row")
            }
            let grown = failures > 1 ? configuration.backoff.delay(afterFailedAttempts: failures - 1, using: &random) : .zero
            try await clock.sleep(for: max(retry, grown))
        }
    }

    /// Reads one connection to its end; updates the reconnection time and the last ID.
    private func readOneConnection(
        retry: inout Duration,
        receivedEvent: inout Bool,
        into continuation: AsyncThrowingStream<ServerSentEvent, any Error>.Continuation
    ) async throws {
        var request = self.request
        let resumeFrom = state.withLock { state -> String in
            state.connections += 1
            return state.lastEventID
        }
        if !resumeFrom.isEmpty { request.headers[Self.lastEventIDField] = resumeFrom }
        let (response, body) = try await client.stream(request)
        if response.status.code == 204 {
            throw CourierError(code: .clientError, message: "the server ended the event stream (204 No Content)")
        }
        var parser = ServerSentEventParser(lastEventID: resumeFrom, limits: configuration.limits)
        for try await chunk in body {
            let events = try parser.parse(chunk)
            if let time = parser.reconnectionTime { retry = time }
            for event in events {
                receivedEvent = true
                state.withLock { $0.lastEventID = parser.lastEventID }
                continuation.yield(event)
            }
        }
        state.withLock { $0.lastEventID = parser.lastEventID }
    }

    /// Whether an error means "do not come back": a 4xx other than 408 and 429, a stream over
    /// the limits, or a TLS failure (another connection would meet the same).
    private static func isFinal(_ error: CourierError) -> Bool {
        if error.code == .responseTooLarge || error.code == .tlsFailure { return true }
        guard let status = error.status?.code else { return false }
        return (400...499).contains(status) && status != 408 && status != 429
    }

    /// `Last-Event-ID`.
    static let lastEventIDField = HTTPField.Name("Last-Event-ID")!
}
