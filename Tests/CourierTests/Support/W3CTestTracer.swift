import InMemoryTracing
import Synchronization
import Tracing

/// An in-memory tracer that propagates the way OpenTelemetry's W3C propagator does: it
/// writes `traceparent: 00-<32 hex trace id>-<16 hex span id>-01` and reads it back. Spans
/// are kept by the `InMemoryTracer` it wraps, so a test reads them from ``finishedSpans``.
///
/// A `final class` whose only state is the wrapped tracer (locked inside) and an `Atomic`
/// counter, hence `Sendable`.
final class W3CTestTracer: Tracer, Sendable {
    typealias Span = InMemorySpan
    let recorder: InMemoryTracer

    init() {
        let traces = Atomic<UInt64>(0)
        let spans = Atomic<UInt64>(0)
        recorder = InMemoryTracer(idGenerator: .init(
            nextTraceID: { Self.hex(traces.wrappingAdd(1, ordering: .relaxed).newValue, digits: 32) },
            nextSpanID: { Self.hex(spans.wrappingAdd(1, ordering: .relaxed).newValue, digits: 16) }
        ))
    }

    var finishedSpans: [FinishedInMemorySpan] { recorder.finishedSpans }

    func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> InstrumentationContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> InMemorySpan {
        recorder.startSpan(operationName, context: context(), ofKind: kind, at: instant(), function: function, file: fileID, line: line)
    }

    func activeSpan(identifiedBy context: InstrumentationContext) -> InMemorySpan? {
        recorder.activeSpan(identifiedBy: context)
    }

    func forceFlush() {}

    func inject<Carrier, Inject: Injector>(_ context: InstrumentationContext, into carrier: inout Carrier, using injector: Inject)
    where Inject.Carrier == Carrier {
        guard let span = context.inMemorySpanContext else { return }
        injector.inject("00-\(span.traceID)-\(span.spanID)-01", forKey: "traceparent", into: &carrier)
    }

    func extract<Carrier, Extract: Extractor>(_ carrier: Carrier, into context: inout InstrumentationContext, using extractor: Extract)
    where Extract.Carrier == Carrier {
        guard let value = extractor.extract(key: "traceparent", from: carrier) else { return }
        let parts = value.split(separator: "-")
        guard parts.count == 4, parts[0] == "00", parts[1].count == 32, parts[2].count == 16 else { return }
        context.inMemorySpanContext = InMemorySpanContext(traceID: String(parts[1]), spanID: String(parts[2]), parentSpanID: nil)
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: digits - text.count) + text
    }
}
