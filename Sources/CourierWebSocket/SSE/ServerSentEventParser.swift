/// Turns the bytes of a `text/event-stream` body into events, as the HTML standard's
/// event-stream interpretation says; a pure value, fed chunk by chunk.
///
/// - A UTF-8 byte order mark at the very start is skipped.
/// - Lines end with CRLF, LF or CR, even when the CR and the LF arrive in different chunks.
/// - Lines starting with `:` are comments; `field: value` loses one space after the colon;
///   a line with no colon is a field with an empty value; unknown fields are ignored.
/// - `data:` lines accumulate (joined with LF); an empty line dispatches the event, unless
///   it has no data. `id:` persists across events (a value containing NUL is ignored);
///   `retry:` is honoured only when it is all ASCII digits.
/// - An event not ended by an empty line when the stream ends is discarded.
///
/// ```swift
/// var parser = ServerSentEventParser()
/// for try await chunk in body {
///     for event in parser.parse(chunk) { handle(event) }
/// }
/// ```
public struct ServerSentEventParser: Sendable {
    /// The last event ID: what a reconnect sends as `Last-Event-ID` (empty for none).
    public private(set) var lastEventID = ""
    /// The reconnection time the stream asked for with `retry:`, if any.
    public private(set) var reconnectionTime: Duration?

    private var line: [UInt8] = []
    private var lastByteWasCR = false
    private var startBytes: [UInt8] = []
    private var pastStart = false
    private var data = ""
    private var hasData = false
    private var eventType = ""
    private var retryInBlock: Duration?

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Makes a parser at the start of a stream.
    public init() {}

    /// Makes a parser for a reconnected stream: the last event ID carries over.
    /// - Parameter lastEventID: The ID from the previous connection.
    public init(lastEventID: String) {
        self.lastEventID = lastEventID
    }

    /// Feeds the next bytes of the stream.
    /// - Parameter bytes: A chunk, of any size, split anywhere.
    /// - Returns: The events completed by this chunk, in order.
    public mutating func parse(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if !pastStart {
                startBytes.append(byte)
                if Self.byteOrderMark.starts(with: startBytes) {
                    if startBytes.count < Self.byteOrderMark.count { continue }
                    pastStart = true
                    startBytes = []
                    continue
                }
                pastStart = true
                let held = startBytes
                startBytes = []
                for held in held { consume(held, into: &events) }
                continue
            }
            consume(byte, into: &events)
        }
        return events
    }

    private mutating func consume(_ byte: UInt8, into events: inout [ServerSentEvent]) {
        switch byte {
        case UInt8(ascii: "\n"):
            if lastByteWasCR {
                lastByteWasCR = false
                return
            }
            endLine(into: &events)
        case UInt8(ascii: "\r"):
            lastByteWasCR = true
            endLine(into: &events)
        default:
            lastByteWasCR = false
            line.append(byte)
        }
    }

    private mutating func endLine(into events: inout [ServerSentEvent]) {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty {
            dispatch(into: &events)
            return
        }
        if line.first == UInt8(ascii: ":") { return }
        let field: [UInt8]
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            field = Array(line[..<colon])
            value = line[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            field = line
            value = []
        }
        switch String(decoding: field, as: UTF8.self) {
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "data":
            if hasData { data += "\n" }
            data += String(decoding: value, as: UTF8.self)
            hasData = true
        case "id":
            if !value.contains(0) { lastEventID = String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
               let milliseconds = Int64(String(decoding: value, as: UTF8.self)) {
                reconnectionTime = .milliseconds(milliseconds)
                retryInBlock = .milliseconds(milliseconds)
            }
        default:
            break
        }
    }

    private mutating func dispatch(into events: inout [ServerSentEvent]) {
        defer {
            data = ""
            hasData = false
            eventType = ""
            retryInBlock = nil
        }
        guard hasData else { return }
        events.append(ServerSentEvent(
            id: lastEventID.isEmpty ? nil : lastEventID,
            event: eventType.isEmpty ? "message" : eventType,
            data: data,
            retry: retryInBlock
        ))
    }
}
