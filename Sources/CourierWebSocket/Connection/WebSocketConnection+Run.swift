import Courier
import HTTPTypes

extension WebSocketConnection {
    /// Carries out the lifecycle's actions until the connection closes for good.
    func runLoop() async {
        var action = shared.withLock { $0.apply(.connectRequested) }
        while true {
            switch action {
            case .connect:
                let event = await attempt()
                action = shared.withLock { $0.apply(event) }
            case .renewCredential:
                let event = await renewCredential()
                action = shared.withLock { $0.apply(event) }
            case .wait(let attempt, let delay):
                logger.debug("websocket reconnecting", metadata: ["attempt": "\(attempt)", "delay": "\(delay)"])
                let event: WebSocketLifecycle.Event
                do {
                    try await clock.sleep(for: delay)
                    event = Task.isCancelled ? .cancelled : .delayElapsed
                } catch {
                    event = .cancelled
                }
                action = shared.withLock { $0.apply(event) }
            case .finish:
                finishResources()
                return
            case .opened, .sendClose, .none:
                // Only the open callback and `close` receive these; here the connection has
                // been closed meanwhile (the event was ignored), or an event came out of turn.
                if !shared.withLock({ $0.lifecycle.isClosed }) {
                    action = shared.withLock { $0.apply(.lost(reason: "unexpected end of the connection")) }
                    continue
                }
                finishResources()
                return
            }
        }
    }

    /// One connection attempt: signs the handshake, runs the engine until the connection ends,
    /// and says how it ended.
    private func attempt() async -> WebSocketLifecycle.Event {
        var headers = configuration.headers
        if let auth {
            do {
                let credential = try await auth.credentialForRequest()
                var request = HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/", headerFields: headers)
                auth.authenticator.apply(credential, to: &request)
                headers = request.headerFields
                shared.withLock { $0.lastCredential = credential }
            } catch {
                return .credentialRenewalFailed(reason: "no usable credential: \(Self.describe(error))")
            }
        }
        var options = WebSocketEngineOptions(
            maxMessageBytes: configuration.maxMessageBytes,
            maxFrameBytes: configuration.maxFrameBytes,
            heartbeat: configuration.heartbeat,
            closeTimeout: configuration.closeTimeout
        )
        options.compression = configuration.compression
        let inbox = self.inbox
        do {
            let end = try await engine.run(
                WebSocketHandshake(url: configuration.url, headers: headers),
                options: options,
                onOpen: { link in await self.opened(link) },
                onMessage: { message in await inbox.push(message) }
            )
            linkEnded()
            if Task.isCancelled { return .cancelled }
            switch end {
            case .closedByServer(let code, let reason):
                return .closedByServer(code: code, reason: reason)
            case .lost(let reason):
                return .lost(reason: reason)
            case .heartbeatTimedOut:
                return .lost(reason: "no pong within \(configuration.heartbeat.map { "\($0)" } ?? "the heartbeat")")
            }
        } catch let error as WebSocketHandshakeError {
            linkEnded()
            return error.status == 401 ? .credentialRejected : .attemptFailed(reason: error.description)
        } catch {
            linkEnded()
            if Task.isCancelled || error is CancellationError { return .cancelled }
            if let error = error as? CourierError, let code = Self.closeCodeForGood(error) {
                shared.withLock { $0.terminalError = error }
                logger.warning("websocket failed for good; not reconnecting", metadata: ["error": "\(error.message)"])
                return .attemptFailedForGood(code: code, reason: error.message)
            }
            return .attemptFailed(reason: Self.describe(error))
        }
    }

    /// The close code for a failure that another attempt cannot mend, or `nil` to reconnect:
    /// a TLS failure (1015; an untrusted certificate or a pin mismatch may be an attack, and
    /// will not pass on its own) or a URL or TLS policy the engine cannot use (1008). The
    /// HTTP retry policy does not retry these either.
    static func closeCodeForGood(_ error: CourierError) -> WebSocketCloseCode? {
        switch error.code {
        case .tlsFailure: return .tlsHandshakeFailure
        case .invalidRequest: return .policyViolation
        default: return nil
        }
    }

    /// Renews the credential the server refused: one refresh, shared with every request of
    /// the session that met the same credential.
    private func renewCredential() async -> WebSocketLifecycle.Event {
        guard let auth, let rejected = shared.withLock({ $0.lastCredential }) else {
            return .credentialRenewalFailed(reason: "no credential to renew")
        }
        do {
            _ = try await auth.credentialAfterRejection(of: rejected)
            return .credentialRenewed
        } catch {
            return .credentialRenewalFailed(reason: "the credential could not be renewed: \(Self.describe(error))")
        }
    }

    /// The engine opened the connection: runs the open hook, then sends what was buffered.
    private func opened(_ link: any WebSocketLink) async {
        let action = shared.withLock { shared -> WebSocketLifecycle.Action in
            shared.link = link
            shared.flushing = true
            return shared.apply(.opened)
        }
        guard case .opened(let isReconnect) = action else { return }
        if let onOpen {
            let context = WebSocketOpenContext(isReconnect: isReconnect, openCount: openCount, link: link)
            do {
                try await onOpen(context)
            } catch {
                logger.warning("websocket open hook failed; reconnecting", metadata: ["error": "\(Self.describe(error))"])
                try? await link.close(code: .internalError, reason: "open hook failed")
                return
            }
        }
        await flushPending(on: link)
    }

    /// Sends the buffered messages in order; stops (keeping the rest) if the link fails.
    private func flushPending(on link: any WebSocketLink) async {
        while true {
            let next = shared.withLock { shared -> WebSocketMessage? in
                guard let message = shared.pending.first else {
                    shared.flushing = false
                    return nil
                }
                return message
            }
            guard let next else { return }
            do {
                try await link.send(next)
            } catch {
                return
            }
            let waiter = shared.withLock { shared -> CheckedContinuation<Void, any Error>? in
                _ = shared.pending.popFirst()
                return shared.takeRoomWaiter()
            }
            waiter?.resume()
        }
    }

    private func linkEnded() {
        shared.withLock { shared in
            shared.link = nil
            shared.flushing = false
        }
    }

    static func describe(_ error: any Error) -> String {
        (error as? CourierError)?.message ?? "\(error)"
    }
}
