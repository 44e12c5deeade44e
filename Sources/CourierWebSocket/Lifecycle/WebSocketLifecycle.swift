import Courier

/// The life of a ``WebSocketConnection`` as a pure state machine: events go in, the action
/// to take comes out. No I/O and no clock: reconnect delays are computed from the policy's
/// backoff with the generator the caller passes, so every path is tested without a socket.
///
/// A loss while connected counts as the first failure of a streak; each failed attempt adds
/// one; an open ends the streak. Attempt `n` of a streak waits
/// `backoff.delay(afterFailedAttempts: n)`.
struct WebSocketLifecycle: Sendable {
    /// Where the connection is.
    enum Phase: Sendable, Hashable {
        case idle
        /// Opening; `attempt` is 0 for the first connect, else the reconnect attempt.
        case connecting(attempt: Int)
        /// The handshake was refused for the credential; it is being renewed.
        case renewingCredential(attempt: Int)
        case connected
        /// Waiting before reconnect attempt `attempt`.
        case waiting(attempt: Int, delay: Duration)
        /// The app asked to close; waiting for the server's answer.
        case closing(code: WebSocketCloseCode, reason: String)
        case closed(code: WebSocketCloseCode, reason: String)
    }

    /// What happened.
    enum Event: Sendable, Hashable {
        case connectRequested
        case opened
        /// The handshake was answered 401.
        case credentialRejected
        case credentialRenewed
        case credentialRenewalFailed(reason: String)
        /// The connection could not be opened (refused, unreachable, handshake declined).
        case attemptFailed(reason: String)
        /// The connection could not be opened, and another attempt would fail the same way
        /// (a TLS failure, a URL or TLS policy the engine cannot use): close with `code`.
        case attemptFailedForGood(code: WebSocketCloseCode, reason: String)
        case closedByServer(code: WebSocketCloseCode, reason: String)
        /// The open connection ended without a close from the server (dropped, or no pong).
        case lost(reason: String)
        case delayElapsed
        case closeRequested(code: WebSocketCloseCode, reason: String)
        case cancelled
    }

    /// What to do next.
    enum Action: Sendable, Hashable {
        case connect
        case renewCredential
        case wait(attempt: Int, delay: Duration)
        /// The connection is open: run the open hook, flush buffered messages.
        case opened(isReconnect: Bool)
        case sendClose(code: WebSocketCloseCode, reason: String)
        /// The connection ended for good: report it and release everything.
        case finish(code: WebSocketCloseCode, reason: String)
        case none
    }

    let policy: ReconnectPolicy
    /// Whether a refused credential can be renewed (the connection has an `AuthSession`).
    let canRenewCredential: Bool
    private(set) var phase: Phase = .idle
    /// Failures in the current streak.
    private(set) var failures = 0
    /// Successful handshakes so far.
    private(set) var openings = 0
    private var renewedInStreak = false

    init(policy: ReconnectPolicy, canRenewCredential: Bool) {
        self.policy = policy
        self.canRenewCredential = canRenewCredential
    }

    /// The phase as the app sees it.
    var state: WebSocketState {
        switch phase {
        case .idle: return .idle
        case .connecting, .renewingCredential: return .connecting
        case .connected, .closing: return .connected
        case .waiting(let attempt, let delay): return .reconnecting(attempt: attempt, delay: delay)
        case .closed(let code, let reason): return .closed(code: code, reason: reason)
        }
    }

    var isClosed: Bool {
        if case .closed = phase { return true }
        return false
    }

    /// Applies an event.
    /// - Parameters:
    ///   - event: What happened.
    ///   - generator: The randomness for the backoff's jitter.
    /// - Returns: What to do.
    mutating func handle(_ event: Event, using generator: inout some RandomNumberGenerator) -> Action {
        switch phase {
        case .idle:
            switch event {
            case .connectRequested:
                phase = .connecting(attempt: 0)
                return .connect
            case .closeRequested(let code, let reason):
                return close(code, reason)
            case .cancelled:
                return close(.goingAway, "cancelled")
            default:
                return .none
            }
        case .connecting(let attempt):
            switch event {
            case .opened:
                phase = .connected
                openings += 1
                failures = 0
                renewedInStreak = false
                return .opened(isReconnect: openings > 1)
            case .credentialRejected:
                guard canRenewCredential else {
                    return close(.policyViolation, "the server refused the credential")
                }
                guard !renewedInStreak else {
                    return close(.policyViolation, "the server refused the renewed credential")
                }
                phase = .renewingCredential(attempt: attempt)
                return .renewCredential
            case .attemptFailed(let reason), .lost(let reason):
                failures += 1
                return scheduleReconnect(reason, using: &generator)
            case .closedByServer(let code, let reason):
                failures += 1
                return scheduleReconnect("closed by the server during the handshake (\(code) \(reason))", using: &generator)
            case .attemptFailedForGood(let code, let reason):
                return close(code, reason)
            case .credentialRenewalFailed(let reason):
                return close(.policyViolation, reason)
            case .closeRequested(let code, let reason):
                return close(code, reason)
            case .cancelled:
                return close(.goingAway, "cancelled")
            case .connectRequested, .credentialRenewed, .delayElapsed:
                return .none
            }
        case .renewingCredential(let attempt):
            switch event {
            case .credentialRenewed:
                renewedInStreak = true
                phase = .connecting(attempt: attempt)
                return .connect
            case .credentialRenewalFailed(let reason):
                return close(.policyViolation, reason)
            case .closeRequested(let code, let reason):
                return close(code, reason)
            case .cancelled:
                return close(.goingAway, "cancelled")
            default:
                return .none
            }
        case .connected:
            switch event {
            case .closedByServer(let code, let reason):
                if policy.isFinal(code) { return close(code, reason) }
                failures = 1
                return scheduleReconnect("closed by the server (\(code)\(reason.isEmpty ? "" : " \(reason)"))", using: &generator)
            case .lost(let reason), .attemptFailed(let reason):
                failures = 1
                return scheduleReconnect(reason, using: &generator)
            case .attemptFailedForGood(let code, let reason):
                return close(code, reason)
            case .closeRequested(let code, let reason):
                phase = .closing(code: code, reason: reason)
                return .sendClose(code: code, reason: reason)
            case .cancelled:
                return close(.goingAway, "cancelled")
            default:
                return .none
            }
        case .waiting(let attempt, _):
            switch event {
            case .delayElapsed:
                phase = .connecting(attempt: attempt)
                return .connect
            case .closeRequested(let code, let reason):
                return close(code, reason)
            case .cancelled:
                return close(.goingAway, "cancelled")
            default:
                return .none
            }
        case .closing(let code, let reason):
            switch event {
            case .closedByServer, .lost, .attemptFailed, .attemptFailedForGood, .cancelled:
                return close(code, reason)
            default:
                return .none
            }
        case .closed:
            return .none
        }
    }

    private mutating func close(_ code: WebSocketCloseCode, _ reason: String) -> Action {
        phase = .closed(code: code, reason: reason)
        return .finish(code: code, reason: reason)
    }

    private mutating func scheduleReconnect(_ reason: String, using generator: inout some RandomNumberGenerator) -> Action {
        if let limit = policy.maxReconnectAttempts, failures > limit {
            let message = limit == 0 ? reason : "gave up after \(limit) reconnect attempts: \(reason)"
            return close(.abnormalClosure, message)
        }
        let delay = policy.backoff.delay(afterFailedAttempts: failures, using: &generator)
        phase = .waiting(attempt: failures, delay: delay)
        return .wait(attempt: failures, delay: delay)
    }
}
