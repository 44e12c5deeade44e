import HTTPTypes
import Tracing

/// The last built-in stage when tracing: a client span for each request that goes out (each
/// retry, each replay after a refresh, each redirect hop), a child of the call's span, with
/// the tracer's propagation fields (W3C `traceparent` under OpenTelemetry) injected into the
/// request so the server can continue the trace.
///
/// The span ends when the response head arrives; reading a streamed body is not part of it.
struct AttemptTracingStage: Middleware {
    /// The client's tracer.
    let tracer: any Tracer

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: Next
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let name = context.endpoint == RequestContext.unnamedEndpoint
            ? request.method.rawValue : "\(request.method.rawValue) \(context.endpoint)"
        let span = tracer.startSpan(name, context: InstrumentationContext.current ?? .topLevel, ofKind: .client)
        // Everything sent before this request, for any reason, makes it a resend.
        let resends = context.record.transportCallCount
        span.updateAttributes { attributes in
            SpanAttributesOfHTTP.setRequest(request, on: &attributes)
            if resends > 0 { attributes["http.request.resend_count"] = resends }
        }
        var outgoing = request
        tracer.inject(span.context, into: &outgoing.headerFields, using: HTTPFieldsInjector())
        return try await SpanAttributesOfHTTP.run(in: span, finishing: { attributes in
            // The version this attempt's response came over, when the transport said.
            if let version = context.record.protocolVersion { attributes["network.protocol.version"] = version.networkProtocolVersion }
        }) { [outgoing] in
            try await next(outgoing, body, context)
        }
    }
}
