import Foundation
public import HTTPTypes
public import Logging

/// Logs each attempt through swift-log, with secrets redacted.
///
/// - At ``requestLevel`` (`.info` by default): method, redacted URL, status and duration,
///   or the error.
/// - At `.debug`: the request and response headers (redacted by ``Redaction``), the
///   request as a `curl` command, and once the response body has been read, its size:
///   decoded, and on the wire when it came compressed (`body_bytes`, `wire_bytes`).
///
/// Authorization, cookies and token-like query items never reach the log handler. Neither do
/// bodies, at any level, unless ``bodies`` allows some JSON keys (``BodyLogging``); a request
/// whose body is personal data (``RequestOptions/bodyIsPersonalData``) is never logged.
/// Add it as network middleware to see every attempt, or as application middleware to
/// see each call once.
public struct LoggingMiddleware: Middleware {
    private let logger: Logger
    /// The level of the one-line summary.
    public var requestLevel: Logger.Level
    /// Whether request bodies appear in the `.debug` `curl` line; ``BodyLogging/never`` by default.
    public var bodies: BodyLogging

    /// Makes the middleware.
    /// - Parameters:
    ///   - logger: Where to log.
    ///   - requestLevel: The level of the one-line summary.
    ///   - bodies: Whether request bodies are logged, through an allow-list of JSON keys; never by default.
    public init(logger: Logger, requestLevel: Logger.Level = .info, bodies: BodyLogging = .never) {
        self.logger = logger
        self.requestLevel = requestLevel
        self.bodies = bodies
    }

    /// Logs the request and its outcome.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: Next
    ) async throws -> (HTTPResponse, HTTPBody?) {
        // Messages and metadata are autoclosures: nothing is redacted or formatted for a level
        // the logger does not log.
        logger.debug(
            "request headers: \(Self.render(request.headerFields))",
            metadata: Self.metadata(context).merging([
                "curl": "\(CURLRendering.render(request, body: body, bodies: context.options.bodyIsPersonalData ? .never : bodies))",
            ]) { $1 }
        )
        let started = ContinuousClock.now
        do {
            let (response, responseBody) = try await next(request, body, context)
            let elapsed = ContinuousClock.now - started
            logger.log(
                level: requestLevel,
                "\(request.method.rawValue) \(Redaction.redactedURL(request)) → \(Self.statusLine(response, context)) in \(Self.milliseconds(elapsed)) ms",
                metadata: Self.metadata(context, status: response.status.code).merging(
                    context.record.protocolVersion.map { ["protocol": "\($0)"] } ?? [:]
                ) { $1 }
            )
            logger.debug("response headers: \(Self.render(response.headerFields))", metadata: Self.metadata(context, status: response.status.code))
            guard logger.logLevel <= .debug, let responseBody else { return (response, responseBody) }
            if let data = responseBody.bufferedData {
                logBodySize(data.count, context: context, status: response.status.code)
                return (response, responseBody)
            }
            // A streamed body's size is known once it has been read: count it on the way.
            let counted = BodySizeCounter(base: responseBody) { [self] count in
                logBodySize(count, context: context, status: response.status.code)
            }
            return (response, HTTPBody(counted, length: responseBody.length, iterationBehavior: responseBody.iterationBehavior))
        } catch {
            let elapsed = ContinuousClock.now - started
            logger.log(
                level: max(requestLevel, .warning),
                "\(request.method.rawValue) \(Redaction.redactedURL(request)) failed after \(Self.milliseconds(elapsed)) ms: \(Self.reason(error))",
                metadata: Self.metadata(context)
            )
            throw error
        }
    }

    private func logBodySize(_ count: Int, context: RequestContext, status: Int) {
        var metadata = Self.metadata(context, status: status)
        metadata["body_bytes"] = "\(count)"
        if let wire = context.record.encodedBodyBytes { metadata["wire_bytes"] = "\(wire)" }
        let wire = context.record.encodedBodyBytes.map { " (\($0) on the wire)" } ?? ""
        logger.debug("response body: \(count) bytes\(wire)", metadata: metadata)
    }

    /// `HTTP/2 200` when the transport named the version, `200` otherwise.
    private static func statusLine(_ response: HTTPResponse, _ context: RequestContext) -> String {
        context.record.protocolVersion.map { "\($0) \(response.status.code)" } ?? "\(response.status.code)"
    }

    private static func metadata(_ context: RequestContext, status: Int? = nil) -> Logger.Metadata {
        var metadata: Logger.Metadata = ["request_id": "\(context.requestID)", "attempt": "\(context.attempt)"]
        if let status { metadata["status"] = "\(status)" }
        return metadata
    }

    private static func reason(_ error: any Error) -> String {
        (error as? CourierError).map { "\($0.code): \($0.message)" } ?? "\(type(of: error))"
    }

    private static func render(_ fields: HTTPFields) -> String {
        Redaction.redactedHeaders(fields).map { "\($0.name): \($0.value)" }.joined(separator: "; ")
    }

    private static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let ms = Double(seconds) * 1_000 + Double(attoseconds) / 1e15
        return String(format: "%.1f", ms)
    }
}

