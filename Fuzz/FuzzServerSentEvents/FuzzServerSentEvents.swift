// Fuzzes `ServerSentEventParser`. The first input byte is a control byte: its low four bits
// give the chunk size (1 to 16) the stream is fed in the second time, bit 4 selects small
// limits (64-byte lines, 256-byte events, 5 s retry) so that the limit errors are reached,
// and bit 5 starts from a last event ID. The rest is the stream.
//
// Checked: feeding the stream whole or in chunks gives the same events, errors and state (the
// parser promises chunks "of any size, split anywhere"); a parser that threw keeps throwing;
// no `retry` exceeds the limit. A thrown `CourierError` is an allowed outcome; a crash is not.
import Courier
import CourierFuzzSupport
import CourierWebSocket

/// The process's entry point, which SwiftPM links as `main`: runs libFuzzer.
@_cdecl("FuzzServerSentEvents_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    courier_fuzz_run(argc, argv)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes: [UInt8] = start != nil && count > 0 ? Array(UnsafeRawBufferPointer(start: start, count: count)) : []
    let control = bytes.first ?? 0
    let stream = Array(bytes.dropFirst())
    let chunkSize = Int(control & 0x0F) + 1
    let limits = control & 0x10 != 0
        ? ServerSentEventLimits(maxLineBytes: 64, maxEventBytes: 256, maxRetry: .seconds(5))
        : ServerSentEventLimits()
    func makeParser() -> ServerSentEventParser {
        control & 0x20 != 0 ? ServerSentEventParser(lastEventID: "41", limits: limits) : ServerSentEventParser(limits: limits)
    }

    var whole = makeParser()
    let wholeResult = feed(&whole, stream[...])

    var chunked = makeParser()
    var chunkedEvents: [ServerSentEvent] = []
    var chunkedError: CourierError?
    var index = 0
    while index < stream.count {
        let end = min(index + chunkSize, stream.count)
        switch feed(&chunked, stream[index..<end]) {
        case .success(let events): chunkedEvents += events
        case .failure(let error): chunkedError = error
        }
        if chunkedError != nil { break }
        index = end
    }

    switch wholeResult {
    case .success(let events):
        guard chunkedError == nil else {
            fatalError("FuzzServerSentEvents: chunks of \(chunkSize) threw \(chunkedError!) where the whole stream did not")
        }
        guard chunkedEvents == events else {
            fatalError("FuzzServerSentEvents: chunks of \(chunkSize) gave \(chunkedEvents), the whole stream \(events)")
        }
        guard chunked.lastEventID == whole.lastEventID, chunked.reconnectionTime == whole.reconnectionTime else {
            fatalError("FuzzServerSentEvents: chunks of \(chunkSize) left another last event ID or reconnection time")
        }
        for event in events {
            if let retry = event.retry, retry < .zero || retry > limits.maxRetry {
                fatalError("FuzzServerSentEvents: an event's retry \(retry) is outside 0...\(limits.maxRetry)")
            }
        }
        if let time = whole.reconnectionTime, time < .zero || time > limits.maxRetry {
            fatalError("FuzzServerSentEvents: the reconnection time \(time) is outside 0...\(limits.maxRetry)")
        }
    case .failure(let error):
        guard let chunkedError else {
            fatalError("FuzzServerSentEvents: the whole stream threw \(error), chunks of \(chunkSize) did not")
        }
        guard chunkedError.code == error.code else {
            fatalError("FuzzServerSentEvents: the whole stream threw \(error), chunks \(chunkedError)")
        }
        // The parser is spent: every later call throws.
        if case .success = feed(&whole, [UInt8]()[...]) {
            fatalError("FuzzServerSentEvents: a parser that threw accepted more bytes")
        }
    }
    return 0
}

/// Feeds bytes to a parser, catching the typed error.
private func feed(_ parser: inout ServerSentEventParser, _ bytes: ArraySlice<UInt8>) -> Result<[ServerSentEvent], CourierError> {
    do throws(CourierError) {
        return .success(try parser.parse(bytes))
    } catch {
        return .failure(error)
    }
}
