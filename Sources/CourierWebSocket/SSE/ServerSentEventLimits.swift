/// How much of an event stream a ``ServerSentEventParser`` holds at once, and the longest
/// reconnection time it accepts: the bounds that keep a hostile or broken server from
/// growing the client's memory without end or from parking it in a wait that never ends.
///
/// - A line longer than ``maxLineBytes`` (comments included: the parser cannot know what a
///   line is before it ends) or an event whose data grows past ``maxEventBytes`` ends the
///   stream with a `CourierError` of code `CourierError.Code.responseTooLarge`.
///   ``ServerSentEventSource`` does not reconnect after it: the server would send the same.
/// - A `retry:` above ``maxRetry`` is **clamped** to it, however many digits it has (even
///   more than an `Int64` holds): the stream still asked to wait long, so it waits the most
///   allowed rather than the default.
///
/// ```swift
/// var limits = ServerSentEventLimits()
/// limits.maxEventBytes = 256 << 10
/// let source = ServerSentEventSource(client: client, path: path, configuration: .init(limits: limits))
/// ```
public struct ServerSentEventLimits: Sendable, Hashable {
    /// The longest line accepted, in bytes, without its line ending.
    public var maxLineBytes: Int
    /// The largest event accepted: the bytes of its `data:` values, with the line feeds that
    /// join them.
    public var maxEventBytes: Int
    /// The longest reconnection time a `retry:` field can set; longer ones are clamped.
    public var maxRetry: Duration

    /// Makes limits.
    /// - Parameters:
    ///   - maxLineBytes: 64 KiB by default; at least 1.
    ///   - maxEventBytes: 1 MiB by default; at least 1.
    ///   - maxRetry: One hour by default; not negative.
    public init(
        maxLineBytes: Int = 64 << 10,
        maxEventBytes: Int = 1 << 20,
        maxRetry: Duration = .seconds(3_600)
    ) {
        self.maxLineBytes = max(1, maxLineBytes)
        self.maxEventBytes = max(1, maxEventBytes)
        self.maxRetry = max(.zero, maxRetry)
    }
}
