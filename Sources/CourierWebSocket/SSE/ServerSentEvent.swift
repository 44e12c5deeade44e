/// One event of a Server-Sent Events stream (`text/event-stream`).
///
/// ```
/// id: 42
/// event: opinion
/// data: {"stance":"for"}
///
/// ```
public struct ServerSentEvent: Sendable, Hashable {
    /// The last event ID in force when the event was dispatched: the `id:` of this event, or
    /// of an earlier one (IDs persist until changed); `nil` when none was set or it was reset.
    public var id: String?
    /// The event type: the `event:` field, or `"message"`.
    public var event: String
    /// The `data:` lines, joined with line feeds.
    public var data: String
    /// The reconnection time set by a `retry:` field in this event's block, if any.
    public var retry: Duration?

    /// Makes an event.
    /// - Parameters:
    ///   - id: The last event ID.
    ///   - event: The event type.
    ///   - data: The data.
    ///   - retry: The reconnection time the event set.
    public init(id: String? = nil, event: String = "message", data: String, retry: Duration? = nil) {
        self.id = id
        self.event = event
        self.data = data
        self.retry = retry
    }
}
