import Foundation
import HTTPTypes

/// One write's delivery attempt and what the queue makes of its outcome.
extension OfflineQueue {
    /// One delivery attempt. Returns whether the queue may go on to the next item.
    func deliver(_ stored: QueuedRequest, with sender: Sender) async -> Bool {
        var item = stored
        item.attempts = max(0, min(item.attempts, Int.max - 1)) + 1
        let credentialAtStart = credentialGeneration
        let outcome: QueueDecision.Outcome
        var answer = Data()
        var answerType: String?
        var failure: CourierError?
        do {
            let (response, body) = try await sender(try Self.httpRequest(for: item), HTTPBody(item.body), context(for: item))
            answer = await body?.prefix(upTo: 64 << 10) ?? Data()
            answerType = response.headerFields[.contentType]
            outcome = .answered(status: response.status.code)
        } catch let error as CourierError {
            failure = error
            outcome = .failed(error.code)
        } catch {
            failure = CourierError(code: .transportFailed, message: "the delivery failed", underlying: error)
            outcome = .failed(.transportFailed)
        }
        switch outcome {
        case .answered: unreachableSince = nil
        case .failed(let code) where OfflineQueueStage.unreachable.contains(code): unreachableSince = clock.date
        case .failed: break
        }
        if case .failed(.cancelled) = outcome {
            // Cut short by cancellation (the app's, or the queue's own shutdown): not a try.
            item.attempts -= 1
        } else if let connectivity, case .failed(let code) = outcome, [.offline, .cannotConnect].contains(code) {
            // With a monitor, the queue knows it is offline and will try again when the
            // network returns: an attempt that could not leave the device does not count.
            item.attempts -= 1
            connectivity.report(.requestUnreachable)
        }
        var generator = SystemRandomNumberGenerator()
        let delay = backoff.delay(afterFailedAttempts: max(1, item.attempts), using: &generator)
        switch QueueDecision.next(after: outcome, attempts: item.attempts, maxAttempts: maxAttempts, delay: delay, now: clock.date) {
        case .delivered:
            forget(item)
            // Removed in batches (see `flushDelivered()`): if the process dies first, the
            // write is delivered again with the same key, and the server answers as before.
            delivered.append(item.id)
            if delivered.count >= Self.deliveredBatch { await flushDelivered() }
            if case .answered(let status) = outcome { observers.publish(.delivered(id: item.id, status: status, body: answer)) }
            return true
        case .waitForSignIn:
            // Not the write's fault: the attempt does not count, and the queue waits.
            item.attempts -= 1
            item.lastError = "the server asked for sign-in; waiting for a credential"
            try? await storage.update(item)
            if credentialGeneration != credentialAtStart {
                // A credential arrived while this attempt was out: try again with it (the write
                // kept its due date; other writes keep their backoff).
                replayRequested = true
                return false
            }
            waitForSignIn(for: item)
            observers.publish(.failed(id: item.id, error: failure ?? CourierError(code: .unauthorized, message: Self.statusText(outcome)), attempts: item.attempts))
            return false
        case .retry(let at):
            item.nextAttemptAt = at
            item.lastError = failure.map { "\($0.code): \($0.message)" } ?? Self.statusText(outcome)
            try? await storage.update(item)
            observers.publish(.failed(id: item.id, error: failure ?? CourierError(code: .serverError, message: Self.statusText(outcome)), attempts: item.attempts))
            return false
        case .deadLetter(let reason):
            forget(item)
            item.state = .deadLettered
            item.lastError = reason
            if case .answered(let status) = outcome {
                item.deadLetterStatus = status
                // Kept on disk for the app to show: token-like values are redacted as in errors.
                item.deadLetterBody = Redaction.redactedSnippet(answer, contentType: answerType, limit: CourierError.snippetLimit)
            }
            try? await storage.update(item)
            observers.publish(.deadLettered(id: item.id, reason: reason))
            return true
        }
    }

    /// A replay of `item` was refused for want of a credential: with sessions per account,
    /// its account's writes wait for a new one; otherwise the whole queue waits.
    func waitForSignIn(for item: QueuedRequest) {
        if deliversAsOwner {
            waitingForSignIn[item.account ?? "", default: SignInWait(since: clock.date)].groups.insert(heldBackKey(item))
        } else {
            isWaitingForSignIn = true
        }
    }
}
