/// The messages a ``WebSocketConnection`` receives, in order, across reconnects; the
/// sequence ends when the connection closes for good.
///
/// Read it from one task: two iterators would share the messages between them.
public struct WebSocketMessages: AsyncSequence, Sendable {
    /// A message.
    public typealias Element = WebSocketMessage
    /// Reading never fails: how the connection ended is in ``WebSocketConnection/state``.
    public typealias Failure = Never

    let inbox: MessageInbox<WebSocketMessage>

    /// Makes an iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(inbox: inbox)
    }

    /// An iterator over the messages.
    public struct Iterator: AsyncIteratorProtocol {
        let inbox: MessageInbox<WebSocketMessage>

        /// The next message; `nil` once the connection has closed and every message was read,
        /// or when the calling task is cancelled.
        public mutating func next() async -> WebSocketMessage? {
            await inbox.next()
        }

        /// The next message (typed-throws form; never throws).
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(Never) -> WebSocketMessage? {
            await inbox.next()
        }
    }
}
