import HTTPTypes
import Hummingbird
import Tracing

/// Continues the trace a client started: reads the propagation fields (W3C `traceparent`, or
/// whatever the tracer uses) from each request, and records one server span per request as
/// their child, with the OpenTelemetry HTTP server attributes.
///
/// It uses the tracer the server was configured with (``ReferenceServerConfiguration/tracer``),
/// never a global one, so a test can give client and server one in-memory tracer and read a
/// single trace across both.
struct ServerTracingMiddleware<Context: RequestContext>: RouterMiddleware {
    let tracer: any Tracer

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var parent = InstrumentationContext.topLevel
        tracer.extract(request.headers, into: &parent, using: FieldsExtractor())
        let span = tracer.startSpan("\(request.method.rawValue) \(request.uri.path)", context: parent, ofKind: .server)
        span.updateAttributes { attributes in
            attributes["http.request.method"] = request.method.rawValue
            attributes["url.path"] = request.uri.path
        }
        do {
            let response = try await InstrumentationContext.$current.withValue(span.context) {
                try await next(request, context)
            }
            span.updateAttributes { $0["http.response.status_code"] = response.status.code }
            if response.status.code >= 500 { span.setStatus(SpanStatus(code: .error)) }
            span.end()
            return response
        } catch {
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error))
            span.end()
            throw error
        }
    }

    /// Reads a field by name from the request's fields.
    private struct FieldsExtractor: Extractor {
        func extract(key: String, from carrier: HTTPFields) -> String? {
            guard let name = HTTPField.Name(key), carrier.contains(name) else { return nil }
            return carrier[name]
        }
    }
}
