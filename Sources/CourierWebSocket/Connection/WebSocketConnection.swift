public import Courier
public import Foundation
public import Logging
import Synchronization

/// A WebSocket connection that comes back: it reconnects with backoff after a drop or a
/// missed pong, renews a refused credential once, resubscribes through its open hook, and
/// buffers what the app sends while it is away.
///
/// ```swift
/// var configuration = WebSocketConfiguration(url: URL(string: "wss://api.example.com/ws")!)
/// configuration.reconnect = ReconnectPolicy(backoff: .exponential(base: .milliseconds(250)))
/// let connection = WebSocketConnection(configuration: configuration, auth: session) { open in
///     try await open.send(.text(#"{"subscribe":"prices"}"#))
/// }
/// connection.connect()
/// Task { for await state in connection.stateChanges() { print(state) } }
/// for await message in connection.messages { handle(message) }
/// ```
///
/// Its lifecycle is a pure state machine (``WebSocketState`` is what the app sees); the
/// engine (``WSClientEngine`` by default) only moves frames, and the clock that times the
/// reconnect waits is injected. Call ``close(code:reason:)`` when done: a connection that is
/// neither closed nor cancelled keeps reconnecting.
///
/// `Sendable`: all mutable state sits in one `Mutex`.
public final class WebSocketConnection: Sendable {
    /// What runs each time the connection opens; see ``WebSocketOpenContext``.
    public typealias OpenHook = @Sendable (WebSocketOpenContext) async throws -> Void

    /// The configuration the connection was made with.
    public let configuration: WebSocketConfiguration
    let engine: any WebSocketEngine
    let auth: AuthSession?
    let clock: any CourierClock
    let onOpen: OpenHook?
    let logger: Logger
    let inbox: MessageInbox<WebSocketMessage>
    let shared: Mutex<SharedState>

    /// Makes a connection; it does not connect until ``connect()`` or ``run()``.
    /// - Parameters:
    ///   - configuration: The URL, reconnect policy, heartbeat and buffers.
    ///   - engine: The engine; `WSClient` by default.
    ///   - auth: The user's session: its credential signs every handshake, and a 401 at the
    ///     handshake renews it (one refresh shared with the session's HTTP requests).
    ///   - clock: Times the reconnect waits.
    ///   - logger: For open-hook failures and reconnects (never header fields or tokens).
    ///   - onOpen: Runs each time the connection opens, before buffered messages are sent.
    public init(
        configuration: WebSocketConfiguration,
        engine: any WebSocketEngine = WSClientEngine(),
        auth: AuthSession? = nil,
        clock: any CourierClock = SystemClock(),
        logger: Logger = Logger(label: "courier.websocket"),
        onOpen: OpenHook? = nil
    ) {
        self.configuration = configuration
        self.engine = engine
        self.auth = auth
        self.clock = clock
        self.logger = logger
        self.onOpen = onOpen
        self.inbox = MessageInbox(
            capacity: configuration.incomingCapacity,
            maxBytes: configuration.incomingMaxBytes,
            dropsOldest: configuration.incomingOverflow == .dropOldest,
            byteCount: { $0.byteCount }
        )
        self.shared = Mutex(SharedState(
            lifecycle: WebSocketLifecycle(policy: configuration.reconnect, canRenewCredential: auth != nil)
        ))
    }

    // MARK: - Observing

    /// The state now.
    public var state: WebSocketState {
        shared.withLock { $0.published }
    }

    /// The state now, then every change, until (and including) `closed`.
    ///
    /// Each call makes a new stream; any number may be read at once. A stream whose reader
    /// stops (its task cancelled, or the stream dropped) is forgotten at once; a reader that
    /// falls behind gets the newest ``stateBufferLimit`` states, `closed` always last.
    public func stateChanges() -> AsyncStream<WebSocketState> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: WebSocketState.self,
            bufferingPolicy: .bufferingNewest(Self.stateBufferLimit)
        )
        let id: Int? = shared.withLock { shared in
            continuation.yield(shared.published)
            if shared.published.isClosed {
                continuation.finish()
                return nil
            }
            shared.nextSubscriberID += 1
            shared.subscribers[shared.nextSubscriberID] = continuation
            return shared.nextSubscriberID
        }
        if let id {
            // Set outside the lock: it runs at once if the stream has already ended. `.finished`
            // comes from `apply`, which finishes subscribers under the lock and removes them itself.
            continuation.onTermination = { [weak self] termination in
                guard case .cancelled = termination else { return }
                _ = self?.shared.withLock { $0.subscribers.removeValue(forKey: id) }
            }
        }
        return stream
    }

    /// How many states a ``stateChanges()`` stream keeps for a reader that falls behind.
    public static let stateBufferLimit = 64

    /// How many ``stateChanges()`` streams are still fed (for tests).
    var stateSubscriberCount: Int {
        shared.withLock { $0.subscribers.count }
    }

    /// The messages received, in order, across reconnects; ends when the connection closes.
    public var messages: WebSocketMessages {
        WebSocketMessages(inbox: inbox)
    }

    /// The messages received, each decoded from JSON; decoding is strict: a message that does
    /// not decode ends the sequence with its `DecodingError`. Read either this or ``messages``.
    /// - Parameters:
    ///   - type: The type every message decodes to.
    ///   - decoder: The decoder.
    /// - Returns: The decoded messages.
    public func messages<Value: Decodable & Sendable>(
        decoding type: Value.Type,
        decoder: JSONDecoder = JSONDecoder()
    ) -> AsyncThrowingMapSequence<WebSocketMessages, Value> {
        messages.map { try $0.decode(Value.self, decoder: decoder) }
    }

    /// How many times the connection has opened.
    public var openCount: Int {
        shared.withLock { $0.lifecycle.openings }
    }

    /// The error that closed the connection without a reconnect, when an attempt failed in a
    /// way another attempt cannot mend: `CourierError.Code.tlsFailure` (an untrusted
    /// certificate, a pin mismatch, no common TLS version; the state is then `closed` with
    /// ``WebSocketCloseCode/tlsHandshakeFailure``) or `CourierError.Code.invalidRequest`
    /// (a URL or TLS policy the engine cannot use; closed with
    /// ``WebSocketCloseCode/policyViolation``). `nil` otherwise.
    public var terminalError: CourierError? {
        shared.withLock { $0.terminalError }
    }

    /// How many received messages were dropped because the app read too slowly: the buffer
    /// held ``WebSocketConfiguration/incomingCapacity`` messages or
    /// ``WebSocketConfiguration/incomingMaxBytes`` bytes (only with
    /// ``WebSocketConfiguration/IncomingOverflow/dropOldest``).
    public var droppedMessages: Int {
        inbox.dropped
    }

    // MARK: - Starting and stopping

    /// Starts connecting in a task of its own, and returns at once.
    ///
    /// Calling it again, or after ``run()``, does nothing.
    public func connect() {
        shared.withLock { shared in
            guard shared.runTask == nil, !shared.started else { return }
            shared.started = true
            shared.runTask = Task { await self.runLoop() }
        }
    }

    /// Connects and keeps the connection up in the calling task, until it closes for good
    /// or the task is cancelled (which closes it with 1001).
    public func run() async {
        let task = shared.withLock { shared -> Task<Void, Never>? in
            guard !shared.started else { return nil }
            shared.started = true
            let task = Task { await self.runLoop() }
            shared.runTask = task
            return task
        }
        guard let task else { return }
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// Closes the connection for good: sends a close frame if it is open, stops a reconnect
    /// wait or attempt, and returns once the connection has ended (bounded by
    /// ``WebSocketConfiguration/closeTimeout``).
    /// - Parameters:
    ///   - code: The close code; 1000 by default.
    ///   - reason: The close reason.
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") async {
        let (action, link, runTask) = shared.withLock { shared in
            let action = shared.apply(.closeRequested(code: code, reason: reason))
            return (action, shared.link, shared.runTask)
        }
        switch action {
        case .sendClose(let code, let reason):
            do {
                try await link?.close(code: code, reason: reason)
            } catch {
                runTask?.cancel()
            }
            // A server that never answers the close is given up on after the close timeout.
            let giveUp = Task { [clock, closeTimeout = configuration.closeTimeout] in
                try await clock.sleep(for: closeTimeout)
                runTask?.cancel()
            }
            await runTask?.value
            giveUp.cancel()
            return
        case .finish:
            finishResources()
        default:
            break
        }
        await runTask?.value
    }
}
