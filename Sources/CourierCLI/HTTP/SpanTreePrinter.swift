import Foundation
import InMemoryTracing
import Tracing

/// `courier get --trace`: the spans a call made, printed as a tree once it is over, each with
/// its duration, attributes and events.
///
/// The tracer is an in-memory one that lives as long as the command; nothing is exported.
struct SpanTreePrinter {
    let tracer: InMemoryTracer

    /// The finished spans as indented lines, roots first, children under their parents in
    /// the order they started.
    func lines() -> [String] {
        let spans = tracer.finishedSpans.sorted { $0.startInstant.nanosecondsSinceEpoch < $1.startInstant.nanosecondsSinceEpoch }
        let ids = Set(spans.map(\.spanID))
        var lines: [String] = []
        func add(_ span: FinishedInMemorySpan, depth: Int) {
            let indent = String(repeating: "  ", count: depth)
            let duration = Double(span.endInstant.nanosecondsSinceEpoch - span.startInstant.nanosecondsSinceEpoch) / 1e6
            let status = span.status?.code == .error ? " error" : ""
            lines.append("\(indent)\(span.operationName) [\(span.kind)] \(String(format: "%.1f", duration)) ms\(status)  trace=\(span.traceID) span=\(span.spanID)")
            var attributes: [String] = []
            span.attributes.forEach { key, value in attributes.append("\(key)=\(Self.render(value))") }
            for attribute in attributes.sorted() { lines.append("\(indent)  · \(attribute)") }
            for event in span.events {
                var details: [String] = []
                event.attributes.forEach { key, value in details.append("\(key)=\(Self.render(value))") }
                let at = Double(event.nanosecondsSinceEpoch - span.startInstant.nanosecondsSinceEpoch) / 1e6
                lines.append("\(indent)  ! +\(String(format: "%.1f", at)) ms \(event.name)" + (details.isEmpty ? "" : " " + details.sorted().joined(separator: " ")))
            }
            for child in spans where child.parentSpanID == span.spanID { add(child, depth: depth + 1) }
        }
        for root in spans where root.parentSpanID.map({ !ids.contains($0) }) ?? true { add(root, depth: 0) }
        return lines
    }

    private static func render(_ value: SpanAttribute) -> String {
        switch value {
        case .string(let text): text
        case .int32(let number): "\(number)"
        case .int64(let number): "\(number)"
        case .double(let number): "\(number)"
        case .bool(let flag): "\(flag)"
        default: "\(value)"
        }
    }
}
