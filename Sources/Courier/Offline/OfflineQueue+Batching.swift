import Foundation
import HTTPTypes

/// Several queued writes sent as one call, by a ``WriteBatcher``.
extension OfflineQueue {
    /// Writes gathered behind one, and the rule that gathered them.
    struct Batch {
        let writes: [QueuedRequest]
        let batcher: WriteBatcher?
    }

    /// The writes that go with `first` by the first rule that batches it; just `first` when none does.
    func batch(startingWith first: QueuedRequest, in items: [QueuedRequest], ignoringBackoff: Bool) -> Batch {
        let now = clock.date
        for batcher in batchers where batcher.batchKey(first) != nil {
            let writes = batcher.batch(startingWith: first, in: items) { ignoringBackoff || $0.nextAttemptAt <= now }
            return Batch(writes: writes, batcher: batcher)
        }
        return Batch(writes: [first], batcher: nil)
    }

    /// Delivers a batch as one call; each write is reported on its own. Returns whether the
    /// queue may go on to the next write.
    func deliver(_ batch: Batch, with sender: Sender) async -> Bool {
        guard let batcher = batch.batcher, let first = batch.writes.first, let combined = try? batcher.combine(batch.writes) else {
            return await deliverOneByOne(batch.writes, with: sender)
        }
        var call = first
        call.method = combined.method
        call.url = combined.url
        call.body = combined.body
        call.fields = first.fields.filter { $0.name.lowercased() != "content-type" } + [QueuedRequest.Field(name: "Content-Type", value: combined.contentType)]
        call.idempotencyKey = WriteBatcher.idempotencyKey(name: batcher.name, of: batch.writes)
        call.invalidates = Array(Set(batch.writes.flatMap(\.invalidates))).sorted()
        call.bodyIsPersonalData = batch.writes.contains(where: \.bodyIsPersonalData)
        let credentialAtStart = credentialGeneration
        let outcome: QueueDecision.Outcome
        var answer = Data()
        var failure: CourierError?
        do {
            let (response, body) = try await sender(try Self.httpRequest(for: call), HTTPBody(call.body), context(for: call))
            answer = await body?.prefix(upTo: 64 << 10) ?? Data()
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
        // As for one write: a cancelled call, or one that could not leave the device while a
        // monitor watches the network, is not an attempt.
        var counts = true
        if case .failed(.cancelled) = outcome {
            counts = false
        } else if let connectivity, case .failed(let code) = outcome, [.offline, .cannotConnect].contains(code) {
            counts = false
            connectivity.report(.requestUnreachable)
        }
        let attempts = (batch.writes.map(\.attempts).max() ?? 0) + (counts ? 1 : 0)
        var generator = SystemRandomNumberGenerator()
        let delay = backoff.delay(afterFailedAttempts: max(1, attempts), using: &generator)
        switch QueueDecision.next(after: outcome, attempts: attempts, maxAttempts: maxAttempts, delay: delay, now: clock.date) {
        case .delivered:
            for write in batch.writes {
                forget(write)
                delivered.append(write.id)
                if case .answered(let status) = outcome { observers.publish(.delivered(id: write.id, status: status, body: answer)) }
            }
            if delivered.count >= Self.deliveredBatch { await flushDelivered() }
            return true
        case .waitForSignIn:
            if credentialGeneration != credentialAtStart {
                replayRequested = true
                return false
            }
            waitForSignIn(for: first)
            observers.publish(.failed(id: first.id, error: failure ?? CourierError(code: .unauthorized, message: Self.statusText(outcome)), attempts: first.attempts))
            return false
        case .retry(let at):
            for var write in batch.writes {
                write.attempts = max(0, min(write.attempts, Int.max - 1)) + (counts ? 1 : 0)
                write.nextAttemptAt = at
                write.lastError = failure.map { "\($0.code): \($0.message)" } ?? Self.statusText(outcome)
                try? await storage.update(write)
                observers.publish(.failed(id: write.id, error: failure ?? CourierError(code: .serverError, message: Self.statusText(outcome)), attempts: write.attempts))
            }
            return false
        case .deadLetter:
            // Refused as a batch: one by one, so that only a bad write is dead-lettered.
            return await deliverOneByOne(batch.writes, with: sender)
        }
    }

    /// Delivers writes one after another, stopping at the first that holds its queue back.
    private func deliverOneByOne(_ writes: [QueuedRequest], with sender: Sender) async -> Bool {
        for write in writes {
            guard await deliver(write, with: sender) else { return false }
        }
        return true
    }
}
