import HTTPTypes
import Tracing

/// The OpenTelemetry HTTP client attributes of a request and its response.
enum SpanAttributesOfHTTP {
    /// `http.request.method`, `server.address`, `server.port` and `url.full`, the URL redacted
    /// as logs show it (no user information, token-like query values replaced).
    static func setRequest(_ request: HTTPRequest, on attributes: inout SpanAttributes) {
        attributes["http.request.method"] = request.method.rawValue
        let (host, port) = hostAndPort(request)
        if let host { attributes["server.address"] = host }
        if let port { attributes["server.port"] = port }
        attributes["url.full"] = Redaction.redactedURL(request)
    }

    /// `http.response.status_code`, and `error.type` (the status code) for a status of 400 and over.
    static func setResponse(_ response: HTTPResponse, on attributes: inout SpanAttributes) {
        attributes["http.response.status_code"] = response.status.code
        if response.status.code >= 400 { attributes["error.type"] = "\(response.status.code)" }
    }

    /// Runs the rest of the chain with `span` as the current context, and ends the span: with
    /// the response's attributes (and an error status from 400 up), or with the failure
    /// recorded. `finishing` adds attributes known only at the end, whatever the outcome.
    static func run(
        in span: any Span,
        finishing: (inout SpanAttributes) -> Void = { _ in },
        _ operation: () async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        do {
            let (response, body) = try await InstrumentationContext.$current.withValue(span.context) { try await operation() }
            span.updateAttributes { attributes in
                setResponse(response, on: &attributes)
                finishing(&attributes)
            }
            if response.status.code >= 400 { span.setStatus(SpanStatus(code: .error)) }
            span.end()
            return (response, body)
        } catch {
            span.updateAttributes { attributes in
                attributes["error.type"] = errorType(error)
                finishing(&attributes)
            }
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error))
            span.end()
            throw error
        }
    }

    /// The failure's low-cardinality name: a ``CourierError``'s code, else the error's type.
    static func errorType(_ error: any Error) -> String {
        (error as? CourierError).map { "\($0.code)" } ?? "\(type(of: error))"
    }

    /// The host and port of the request's authority; the port is the scheme's default when
    /// the authority names none.
    static func hostAndPort(_ request: HTTPRequest) -> (String?, Int?) {
        guard let authority = request.authority, !authority.isEmpty else { return (nil, nil) }
        let defaultPort = request.scheme?.lowercased() == "https" ? 443 : 80
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            let host = String(authority[authority.index(after: authority.startIndex)..<close])
            let rest = authority[authority.index(after: close)...]
            let port = rest.hasPrefix(":") ? Int(rest.dropFirst()) : nil
            return (host, port ?? defaultPort)
        }
        let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let host = String(parts[0])
        let port = parts.count == 2 ? Int(parts[1]) : nil
        return (host, port ?? defaultPort)
    }
}
