import Foundation
import HTTPTypes

/// The chain stage, between the cache and retry, that stores a queueable write in the
/// ``OfflineQueue`` when the server cannot be reached, and tells the caller it was queued.
///
/// It gives every queueable write an `Idempotency-Key` before its first attempt (unless the
/// request has one), so the attempt that may have reached the server and every replay carry
/// the same key. A write to a URL with a queued write ahead of it never overtakes that one
/// (see "Order with live writes" in ``OfflineQueue``).
struct OfflineQueueStage: Middleware {
    let queue: OfflineQueue
    let connectivity: ConnectivityMonitor?
    /// The wait for requests that set none (``ClientConfiguration/connectivityWait``).
    let defaultConnectivityWait: Duration?
    /// The session whose account a queued write belongs to.
    let auth: SessionResolver
    /// The client's base URL, which ``RequestOptions/invalidates`` paths are relative to.
    let base: RequestTarget.Base

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: Next
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard Self.writes.contains(request.method) else { return try await next(request, body, context) }
        var queueAhead: String?
        var waitsInSeveralQueues = false
        if !(try await writesAhead(of: request, context: context)).isEmpty {
            // Deliver what waits first; if it still cannot go, this write may not go either.
            await queue.deliverAhead()
            let waiting = try await writesAhead(of: request, context: context)
            queueAhead = waiting.last?.queue
            // Order is kept within a named queue, or within an account's writes in it: queued
            // behind writes kept in order apart from its own, this one could overtake them.
            if await queue.ordersPerAccount {
                let owner = await owner(of: context)
                waitsInSeveralQueues = Set(waiting.map(\.queue)).count > 1 || waiting.contains { $0.account != owner }
            } else {
                waitsInSeveralQueues = Set(waiting.map(\.queue)).count > 1
            }
        }
        guard context.options.isQueueable else {
            if queueAhead != nil {
                throw CourierError(code: .queuedWriteAhead, message: "a queued write to the same URL has not been delivered yet; this one would overtake it")
            }
            return try await next(request, body, context)
        }
        var request = request
        if !request.headerFields.contains(.idempotencyKey) { request.headerFields[.idempotencyKey] = UUID().uuidString }
        // Only a body held in memory can be stored; a URL with a secret in its query is never stored.
        let storedBody: Data? = body == nil ? Data() : body?.bufferedData
        guard let storedBody, !Self.hasSecretQuery(request) else {
            if context.options.queuesFirst {
                // An outbox write that cannot be stored is not sent either: the caller would not know whether it was applied.
                throw CourierError(code: .invalidRequest, message: "the write cannot be stored in the queue (a streamed body, or a secret in its query); it was not sent")
            }
            if queueAhead != nil {
                throw CourierError(code: .queuedWriteAhead, message: "a queued write to the same URL has not been delivered yet, and this one cannot be queued behind it")
            }
            return try await next(request, body, context)
        }
        if let queueAhead {
            if waitsInSeveralQueues {
                // Delivered independently of each other: behind one, it could overtake another.
                throw CourierError(
                    code: .queuedWriteAhead,
                    message: "queued writes to the same URL are kept in order apart from this one (another named queue, or writes of no account); it cannot be queued behind all of them"
                )
            }
            // Behind the waiting write, in its named queue, so that it is delivered after it.
            throw try await enqueue(request, body: storedBody, context: context, queueName: queueAhead, because: nil)
        }
        if context.options.queuesFirst {
            // An outbox write: stored first, delivered by the queue (by any process sharing it).
            throw try await enqueue(request, body: storedBody, context: context, queueName: nil, because: nil, dueNow: true)
        }

        if let connectivity, !connectivity.status.isReachable, (context.options.connectivityWait ?? defaultConnectivityWait) == nil {
            throw try await enqueue(request, body: storedBody, context: context, queueName: nil, because: nil)
        }
        do {
            return try await next(request, body, context)
        } catch let error as CourierError where Self.unreachable.contains(error.code) {
            throw try await enqueue(request, body: storedBody, context: context, queueName: nil, because: error)
        }
    }

    /// The writes to this request's URL that its account may deliver, oldest first: each one's
    /// account and named queue.
    /// - Throws: ``CourierError/Code/storageFailed`` when a shared outbox cannot be read: the
    ///   write is not sent, as it might overtake one queued by another process.
    private func writesAhead(of request: HTTPRequest, context: RequestContext) async throws -> [(account: String?, queue: String)] {
        let waiting: [(account: String?, queue: String)]
        do {
            waiting = try await queue.pendingWrites(to: CacheStage.url(of: request))
        } catch {
            throw CourierError(
                code: .storageFailed, message: "the outbox could not be read to keep this write behind queued ones; it was neither sent nor queued",
                underlying: error
            )
        }
        guard !waiting.isEmpty else { return [] }
        let account = await owner(of: context)
        return waiting.filter { $0.account == nil || $0.account == account }
    }

    private func enqueue(
        _ request: HTTPRequest, body: Data, context: RequestContext, queueName: String?, because failure: CourierError?, dueNow: Bool = false
    ) async throws -> CourierError {
        let item = QueuedRequest(
            queue: queueName ?? context.options.queueName ?? OfflineQueue.defaultQueueName,
            method: request.method.rawValue,
            url: CacheStage.url(of: request),
            fields: request.headerFields
                .filter { !Redaction.isSensitiveHeader($0.name) && !QueuedRequest.secretFieldNames.contains($0.name.canonicalName) && $0.name != .idempotencyKey }
                .map { QueuedRequest.Field(name: $0.name.rawName, value: $0.value) },
            body: body,
            idempotencyKey: request.headerFields[.idempotencyKey] ?? UUID().uuidString,
            createdAt: queue.clock.date,
            account: await owner(of: context),
            invalidates: context.options.invalidates.compactMap { path in
                (try? RequestTarget.make(base: base, path: path, query: [])).map { "\($0.scheme)://\($0.authority)\($0.pathAndQuery)" }
            },
            bodyIsPersonalData: context.options.bodyIsPersonalData
        )
        do {
            try await queue.enqueue(item, dueNow: dueNow)
        } catch {
            throw CourierError(code: .storageFailed, message: "the write could not be stored in the offline queue; it was neither sent nor queued", underlying: error)
        }
        context.record.note(.queued(id: item.id))
        let reason = failure.map { "the server could not be reached (\($0.code))" }
            ?? (dueNow ? "the write was sent to the outbox" : queueName != nil ? "a write to the same URL is waiting to be delivered" : "the device is offline")
        var queued = CourierError(code: .queued, message: "\(reason); the write was queued as \(item.id)", underlying: failure)
        queued.queuedRequestID = item.id
        return queued
    }

    /// The account a queued write belongs to: the one the request names, else the signing credential's.
    private func owner(of context: RequestContext) async -> String? {
        guard context.options.requiresAuth else { return nil }
        if let account = context.options.account { return account }
        return await auth.credential(for: context.options)?.accountID
    }

    private static func hasSecretQuery(_ request: HTTPRequest) -> Bool {
        guard let path = request.path, let query = path.split(separator: "?", maxSplits: 1).dropFirst().first else { return false }
        return query.split(separator: "&").contains { item in
            Redaction.isSensitiveQueryItem(String(item.split(separator: "=", maxSplits: 1).first ?? ""))
        }
    }

    /// The methods that may be queued.
    static let writes: Set<HTTPRequest.Method> = [.post, .put, .patch, .delete]
    /// Failures after which the write is queued: the server was not reached, or the
    /// connection broke before an answer (the key makes a repeat harmless).
    static let unreachable: Set<CourierError.Code> = [.offline, .cannotConnect, .connectionLost, .timedOut]
}
