import HTTPTypes
import Tracing

/// The first link of the chain when tracing: one span for the whole call, named from the
/// request's name, under which every attempt's span (``AttemptTracingStage``) is a child.
///
/// The chain's decisions (``ChainEvent``: cache answers, dedup joins, retries with their
/// waits, credential renewals, redirects, queueing) become events on this span as they are
/// made. The client links it only when it has a tracer (``ClientConfiguration/tracer``, or one
/// bootstrapped with `InstrumentationSystem` before the client was made).
struct CallTracingStage: Middleware {
    /// The client's tracer.
    let tracer: any Tracer

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: Next
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let span = tracer.startSpan(
            context.endpoint == RequestContext.unnamedEndpoint ? request.method.rawValue : context.endpoint,
            context: InstrumentationContext.current ?? .topLevel,
            ofKind: .internal
        )
        span.updateAttributes { attributes in
            SpanAttributesOfHTTP.setRequest(request, on: &attributes)
            attributes["courier.request_id"] = context.requestID
        }
        context.record.observe { event in span.addEvent(SpanEvent(name: event.name, attributes: Self.attributes(of: event))) }
        return try await SpanAttributesOfHTTP.run(in: span, finishing: { attributes in
            attributes["courier.cache.status"] = "\(context.record.cacheStatus)"
            attributes["courier.attempts"] = context.record.transportCallCount
        }) {
            try await next(request, body, context)
        }
    }

    /// What an event says, as span event attributes; never a credential, a body or a raw URL.
    static func attributes(of event: ChainEvent) -> SpanAttributes {
        var attributes = SpanAttributes()
        switch event {
        case .cacheServed(let status, let reason):
            attributes["courier.cache.status"] = "\(status)"
            attributes["courier.cache.reason"] = reason
        case .cacheMiss(let revalidating):
            attributes["courier.cache.revalidating"] = revalidating
        case .joinedCallInFlight:
            break
        case .queued(let id):
            attributes["courier.queue.id"] = id
        case .retrying(let attempt, let delay, let after, let retryAfter):
            attributes["http.request.resend_count"] = attempt - 1
            attributes["courier.retry.delay_ms"] = Int(delay.timeInterval * 1_000)
            attributes["courier.retry.after"] = after
            if let retryAfter { attributes["http.response.header.retry-after"] = retryAfter }
        case .credentialRenewed:
            break
        case .redirected(let status, let location, let removed):
            attributes["http.response.status_code"] = status
            attributes["courier.redirect.location"] = location
            if !removed.isEmpty { attributes["courier.redirect.removed_fields"] = removed.joined(separator: ",") }
        }
        return attributes
    }
}
