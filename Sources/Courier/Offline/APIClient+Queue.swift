extension APIClient {
    /// How a queueable write ended: delivered now, or stored for later.
    public enum Delivery<Value> {
        /// The server answered.
        case delivered(Response<Value>)
        /// The server could not be reached; the ``OfflineQueue`` holds the write under this id
        /// and will deliver it later (follow ``OfflineQueue/events()``).
        case queued(id: String)
    }

    /// Sends a write, marked queueable, and reports whether it was delivered or queued
    /// instead of throwing ``CourierError/Code/queued``.
    /// - Parameter request: The write; ``RequestOptions/isQueueable`` is set for it.
    /// - Throws: ``CourierError`` for every other failure (a 4xx, or no queue configured and
    ///   no server).
    public func sendOrQueue<Value: Decodable & Sendable>(_ request: Request<Value>) async throws -> Delivery<Value> {
        try await Self.delivery(of: request) { try await send($0) }
    }

    /// Sends a write whose answer has no body to decode, as the decoding `sendOrQueue(_:)` does.
    public func sendOrQueue(_ request: Request<Void>) async throws -> Delivery<Void> {
        try await Self.delivery(of: request) { try await send($0) }
    }

    /// Sends a request marked queueable and turns ``CourierError/Code/queued`` into `.queued`.
    private static func delivery<Value>(
        of request: Request<Value>, send: (Request<Value>) async throws -> Response<Value>
    ) async throws -> Delivery<Value> {
        var request = request
        request.options.isQueueable = true
        do {
            return .delivered(try await send(request))
        } catch let error as CourierError where error.code == .queued {
            return .queued(id: error.queuedRequestID ?? "")
        }
    }

    /// Stores a write in the ``OfflineQueue`` without trying it first, to be delivered by the
    /// queue at once, in order with the other writes of its account and named queue: an
    /// outbox. With a shared storage (`CourierPostgres`'s `PostgresQueueStorage`), any
    /// process attached to it may deliver it.
    /// - Parameter request: The write (POST, PUT, PATCH or DELETE with a body held in memory).
    /// - Returns: The queued write's id.
    /// - Throws: ``CourierError/Code/invalidRequest`` when the client has no queue or the
    ///   write cannot be stored; the storage's error when storing fails.
    @discardableResult
    public func enqueue<Value>(_ request: Request<Value>) async throws -> String {
        guard configuration.offlineQueue != nil else {
            throw CourierError(code: .invalidRequest, message: "the client has no offline queue (ClientConfiguration.offlineQueue)")
        }
        var request = request
        request.options.isQueueable = true
        request.options.queuesFirst = true
        guard [.post, .put, .patch, .delete].contains(request.method) else {
            throw CourierError(code: .invalidRequest, message: "only a POST, PUT, PATCH or DELETE can be queued; the request was not sent")
        }
        let notStored = CourierError(code: .invalidRequest, message: "the write could not be stored in the queue; it was not sent")
        do {
            _ = try await receive(request) { _, _ in throw notStored }
        } catch let error as CourierError where error.code == .queued {
            return error.queuedRequestID ?? ""
        }
        throw notStored
    }
}
