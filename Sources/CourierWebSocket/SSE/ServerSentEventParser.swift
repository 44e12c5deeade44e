public import Courier

/// Turns the bytes of a `text/event-stream` body into events, as the HTML standard's
/// event-stream interpretation says; a pure value, fed chunk by chunk.
///
/// - A UTF-8 byte order mark at the very start is skipped.
/// - Lines end with CRLF, LF or CR, even when the CR and the LF arrive in different chunks.
/// - Lines starting with `:` are comments; `field: value` loses one space after the colon;
///   a line with no colon is a field with an empty value; unknown fields are ignored.
/// - `data:` lines accumulate (joined with LF); an empty line dispatches the event, unless
///   it has no data. `id:` persists across events (a value containing NUL is ignored);
///   `retry:` is honoured only when it is all ASCII digits, and clamped to
///   ``ServerSentEventLimits/maxRetry``.
/// - An event not ended by an empty line when the stream ends is discarded.
///
/// ## Limits
/// The parser holds at most one line and one event's data. A line longer than
/// ``ServerSentEventLimits/maxLineBytes``, or data growing past
/// ``ServerSentEventLimits/maxEventBytes``, makes ``parse(_:)`` throw a `CourierError`
/// with code `CourierError.Code.responseTooLarge`; the parser is then spent, and
/// every later call throws the same error. Events completed earlier in the same chunk are
/// lost with it: the stream is ending.
///
/// ```swift
/// var parser = ServerSentEventParser()
/// for try await chunk in body {
///     for event in try parser.parse(chunk) { handle(event) }
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
    /// The bytes of `data`, counted as they arrive (before UTF-8 repair).
    private var dataBytes = 0
    /// The limit the stream broke, once it has broken one.
    private var failure: CourierError?

    /// The bounds the parser enforces.
    public let limits: ServerSentEventLimits

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Makes a parser at the start of a stream.
    /// - Parameter limits: The longest line, the largest event and the longest `retry:`;
    ///   64 KiB, 1 MiB and one hour by default.
    public init(limits: ServerSentEventLimits = ServerSentEventLimits()) {
        self.limits = limits
    }

    /// Makes a parser for a reconnected stream: the last event ID carries over.
    /// - Parameters:
    ///   - lastEventID: The ID from the previous connection.
    ///   - limits: The longest line, the largest event and the longest `retry:`.
    public init(lastEventID: String, limits: ServerSentEventLimits = ServerSentEventLimits()) {
        self.lastEventID = lastEventID
        self.limits = limits
    }

    /// Feeds the next bytes of the stream.
    /// - Parameter bytes: A chunk, of any size, split anywhere.
    /// - Returns: The events completed by this chunk, in order.
    /// - Throws: A `CourierError` with code `CourierError.Code.responseTooLarge`
    ///   when a line or an event is over ``limits``, now or at an earlier call.
    public mutating func parse(_ bytes: some Sequence<UInt8>) throws(CourierError) -> [ServerSentEvent] {
        if let failure { throw failure }
        var events: [ServerSentEvent] = []
        do throws(CourierError) {
            try feed(bytes, into: &events)
        } catch {
            failure = error
            throw error
        }
        return events
    }

    private mutating func feed(_ bytes: some Sequence<UInt8>, into events: inout [ServerSentEvent]) throws(CourierError) {
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
                for held in held { try consume(held, into: &events) }
                continue
            }
            try consume(byte, into: &events)
        }
    }

    private mutating func consume(_ byte: UInt8, into events: inout [ServerSentEvent]) throws(CourierError) {
        switch byte {
        case UInt8(ascii: "\n"):
            if lastByteWasCR {
                lastByteWasCR = false
                return
            }
            try endLine(into: &events)
        case UInt8(ascii: "\r"):
            lastByteWasCR = true
            try endLine(into: &events)
        default:
            lastByteWasCR = false
            guard line.count < limits.maxLineBytes else {
                throw CourierError(
                    code: .responseTooLarge,
                    message: "the event stream sent a line longer than the limit of \(limits.maxLineBytes) bytes"
                )
            }
            line.append(byte)
        }
    }

    private mutating func endLine(into events: inout [ServerSentEvent]) throws(CourierError) {
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
            let added = value.count + (hasData ? 1 : 0)
            guard added <= limits.maxEventBytes - dataBytes else {
                throw CourierError(
                    code: .responseTooLarge,
                    message: "the event stream sent an event larger than the limit of \(limits.maxEventBytes) bytes"
                )
            }
            dataBytes += added
            if hasData { data += "\n" }
            data += String(decoding: value, as: UTF8.self)
            hasData = true
        case "id":
            if !value.contains(0) { lastEventID = String(decoding: value, as: UTF8.self) }
        case "retry":
            if let time = Self.reconnectionTime(value, limit: limits.maxRetry) {
                reconnectionTime = time
                retryInBlock = time
            }
        default:
            break
        }
    }

    private mutating func dispatch(into events: inout [ServerSentEvent]) {
        defer {
            data = ""
            dataBytes = 0
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

    /// The time a `retry:` value asks for, clamped to `limit`; `nil` unless it is all ASCII
    /// digits. Digits past what an `Int64` holds saturate instead of overflowing.
    static func reconnectionTime(_ value: ArraySlice<UInt8>, limit: Duration) -> Duration? {
        guard !value.isEmpty, value.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        var milliseconds: Int64 = 0
        for digit in value {
            let (shifted, shiftOverflow) = milliseconds.multipliedReportingOverflow(by: 10)
            let (sum, addOverflow) = shifted.addingReportingOverflow(Int64(digit - UInt8(ascii: "0")))
            if shiftOverflow || addOverflow {
                milliseconds = .max
                break
            }
            milliseconds = sum
        }
        return min(.milliseconds(milliseconds), limit)
    }
}
