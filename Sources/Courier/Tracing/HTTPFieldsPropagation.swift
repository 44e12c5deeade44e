public import HTTPTypes
public import Instrumentation

/// Writes a tracer's propagation fields (W3C `traceparent` and `tracestate`, or whatever the
/// bootstrapped instrument uses) into a request's header fields.
///
/// Courier injects through it on every attempt when a tracer is in use; a server or a
/// middleware of your own can use it too.
public struct HTTPFieldsInjector: Injector {
    /// Makes the injector.
    public init() {}

    /// Sets `key` to `value`, replacing any value the fields had.
    /// - Parameters:
    ///   - value: The value.
    ///   - key: The field's name; a name HTTP does not allow is skipped.
    ///   - carrier: The fields.
    public func inject(_ value: String, forKey key: String, into carrier: inout HTTPFields) {
        guard let name = HTTPField.Name(key) else { return }
        carrier[name] = value
    }
}

/// Reads a tracer's propagation fields from header fields: the other half of
/// ``HTTPFieldsInjector``, for a server that continues the trace a Courier call started.
public struct HTTPFieldsExtractor: Extractor {
    /// Makes the extractor.
    public init() {}

    /// The value of the field named `key`, the values joined with commas when it repeats.
    /// - Parameters:
    ///   - key: The field's name.
    ///   - carrier: The fields.
    /// - Returns: The value, or `nil` when the field is absent.
    public func extract(key: String, from carrier: HTTPFields) -> String? {
        guard let name = HTTPField.Name(key), carrier.contains(name) else { return nil }
        return carrier[name]
    }
}
