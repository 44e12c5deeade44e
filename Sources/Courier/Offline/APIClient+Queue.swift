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
}
