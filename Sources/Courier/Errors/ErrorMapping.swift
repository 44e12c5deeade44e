public import Foundation
public import HTTPTypes

/// Turns whatever the chain threw, or a response it did not accept, into a ``CourierError``
/// with context.
enum ErrorMapping {
    /// The error for a response whose status the client does not accept.
    static func statusError(_ response: HTTPResponse, body: Data) -> CourierError {
        let code = CourierError.Code.forStatus(response.status)
        let serverError = ServerErrorBody.parse(body)
        var error = CourierError(
            code: code,
            // URLSession gives no reason phrase: then the code alone, with no trailing space.
            message: response.status.reasonPhrase.isEmpty
                ? "the server answered \(response.status.code)"
                : "the server answered \(response.status.code) \(response.status.reasonPhrase)"
        )
        error.status = response.status
        error.headers = Redaction.redactedHeaders(response.headerFields)
        error.bodySnippet = snippet(body, contentType: response.headerFields[.contentType])
        error.serverMessage = serverError?.message
        error.serverCode = serverError?.code
        if code == .redirectNotFollowed, let location = response.headerFields[.location] {
            let redacted = Redaction.redactedURL(location)
            error.redirectLocation = redacted
            error.message += " to \(redacted), a redirect the client's policy does not follow"
        }
        if let retryAfter = response.headerFields[.retryAfter] {
            error.retryAfter = RetryAfter.parse(retryAfter, now: Date())
        }
        return error
    }

    /// The error for a body that did not decode, with its coding path.
    static func decodingError(_ error: any Error, data: Data, response: HTTPResponse) -> CourierError {
        var wrapped = CourierError(code: .decodingFailed, message: "the response body could not be decoded", underlying: error)
        if let coding = response.headerFields[.contentEncoding], !coding.isEmpty, coding.lowercased() != "identity" {
            // Still encoded: a coding the transport and Courier do not undo (br, say), or one the
            // caller asked to keep. Read as JSON it is noise; say what it is instead.
            wrapped = CourierError(
                code: .contentDecodingFailed,
                message: "the response body is in Content-Encoding \(coding), which was not decoded, so it could not be read",
                underlying: error
            )
        } else if let decodingError = error as? DecodingError {
            let (path, reason) = describe(decodingError)
            wrapped.codingPath = path
            wrapped.message = "the response body could not be decoded: \(reason)"
        }
        wrapped.status = response.status
        wrapped.headers = Redaction.redactedHeaders(response.headerFields)
        wrapped.bodySnippet = snippet(data, contentType: response.headerFields[.contentType])
        return wrapped
    }

    /// ``courierError(from:request:record:)``, boxed: for async functions, whose frames would
    /// otherwise keep room for a whole ``CourierError`` on every call, thrown or not.
    @inline(never)
    static func thrownError(from error: any Error, request: HTTPRequest, record: CallRecord) -> any Error {
        courierError(from: error, request: request, record: record)
    }

    /// Wraps any error as a ``CourierError`` and adds the request's method and redacted URL.
    static func courierError(from error: any Error, request: HTTPRequest, record: CallRecord) -> CourierError {
        var result: CourierError
        switch error {
        case let error as CourierError:
            result = error
        case is CancellationError:
            result = CourierError(code: .cancelled, message: "the request was cancelled", underlying: error)
        case let error as HTTPBody.TooManyBytesError:
            result = CourierError(
                code: .responseTooLarge,
                message: "the response body is larger than the limit of \(error.maxBytes) bytes",
                underlying: error
            )
        case is HTTPBody.AlreadyConsumedError:
            result = CourierError(
                code: .invalidRequest,
                message: "a single-use body was sent twice; mark the body replayable to allow retries",
                underlying: error
            )
        default:
            result = CourierError(code: .transportFailed, message: "the request failed: \(error)", underlying: error)
        }
        if result.code != .cancelled && Task.isCancelled && result.code.isTransportFailure {
            result.code = .cancelled
        }
        result.attempts = record.transportCallCount
        if let reason = record.retryStopReason {
            result.retryStopReason = reason
            result.message += " (retrying stopped: \(reason.explanation))"
        }
        if result.method == nil { result.method = request.method }
        if result.url == nil { result.url = Redaction.redactedURL(request) }
        return result
    }

    /// The start of a body as text, for error reports, with token-like JSON and form values
    /// redacted at any depth (an error is often logged whole).
    static func snippet(_ data: Data, contentType: String? = nil) -> String? {
        guard !data.isEmpty else { return nil }
        return Redaction.redactedSnippet(data, contentType: contentType, limit: CourierError.snippetLimit)
    }

    /// A coding path in the form `items[1].id`, and the decoder's reason.
    static func describe(_ error: DecodingError) -> (path: String, reason: String) {
        func render(_ path: [any CodingKey]) -> String {
            var result = ""
            for key in path {
                if let index = key.intValue {
                    result += "[\(index)]"
                } else {
                    result += result.isEmpty ? key.stringValue : ".\(key.stringValue)"
                }
            }
            return result.isEmpty ? "(top level)" : result
        }
        switch error {
        case .typeMismatch(let type, let context):
            return (render(context.codingPath), "expected \(type) at \(render(context.codingPath)): \(context.debugDescription)")
        case .valueNotFound(let type, let context):
            return (render(context.codingPath), "missing \(type) value at \(render(context.codingPath))")
        case .keyNotFound(let key, let context):
            let path = render(context.codingPath + [key])
            return (path, "missing key \"\(key.stringValue)\" at \(path)")
        case .dataCorrupted(let context):
            return (render(context.codingPath), "invalid data at \(render(context.codingPath)): \(context.debugDescription)")
        @unknown default:
            return ("(unknown)", "\(error)")
        }
    }
}

/// What Courier reads from a JSON error body, whichever of the common shapes it has.
enum ServerErrorBody {
    /// Reads a message and a code from a JSON object; `nil` for anything else.
    ///
    /// Each field is read on its own, so one of an unexpected type never hides the others:
    /// - `message`, else `error` (seed 004's `{error, message, details}` and CLARITY's
    ///   `ErrorResponse {error, code, details}`), else `detail` (FastAPI's `{"detail": "…"}`);
    ///   a FastAPI validation list (`{"detail": [{"loc": [...], "msg": "…"}]}`) gives its first `msg`;
    /// - an `error` object (`{"error": {"message": "…", "code": "…"}}`) gives its own fields;
    /// - an RFC 9457 problem (`{"type", "title", "status", "detail"}`), at the top level or
    ///   nested in FastAPI's `detail`, gives its `detail` (else `title`) and its `type`;
    /// - an OAuth error (RFC 6749: `{"error": "invalid_grant", "error_description": "…"}`)
    ///   gives its description and its `error`;
    /// - `code` as a string or a number, else `error` when `message` was the text.
    static func parse(_ data: Data) -> (message: String?, code: String?)? {
        guard !data.isEmpty, let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
        if let problem = problem(object["detail"] as? [String: Any]) ?? problem(object) { return problem }
        let nested = object["error"] as? [String: Any]
        let errorText = object["error"] as? String
        let description = object["error_description"] as? String
        let message = object["message"] as? String ?? nested?["message"] as? String ?? description ?? errorText ?? detailText(object["detail"])
        var code = text(object["code"]) ?? text(nested?["code"])
        if code == nil, object["message"] is String || description != nil { code = errorText }
        guard message != nil || code != nil else { return nil }
        return (message, code)
    }

    /// An RFC 9457 problem's text and type: an object with a string `title` or `type` beside a
    /// `status` or a string `detail`; `nil` for anything else.
    private static func problem(_ object: [String: Any]?) -> (message: String?, code: String?)? {
        guard let object, object["message"] == nil, !(object["error"] is String) else { return nil }
        let title = object["title"] as? String
        let type = object["type"] as? String
        let detail = object["detail"] as? String
        guard title != nil || type != nil, object["status"] != nil || detail != nil else { return nil }
        return (detail ?? title, type.flatMap(problemCode) ?? text(object["code"]))
    }

    /// A problem type as a code: `invalid_credentials` as it is, and the last path segment of a
    /// URI (`https://example.com/problems/out-of-credit` gives `out-of-credit`); `about:blank` is none.
    private static func problemCode(_ type: String) -> String? {
        guard type != "about:blank" else { return nil }
        guard type.contains("/"), let last = type.split(separator: "/").last else { return type }
        return String(last)
    }

    /// FastAPI's `detail`: a string, or the first `msg` of a validation list.
    private static func detailText(_ value: Any?) -> String? {
        if let text = value as? String { return text }
        guard let first = (value as? [Any])?.first as? [String: Any], let message = first["msg"] as? String else { return nil }
        if let location = first["loc"] as? [Any], !location.isEmpty {
            return location.map { "\($0)" }.joined(separator: ".") + ": " + message
        }
        return message
    }

    /// A string, or an integer written as one.
    private static func text(_ value: Any?) -> String? {
        if let text = value as? String { return text }
        if let number = value as? Int { return String(number) }
        return nil
    }
}

extension CourierError {
    /// The error Courier gives a response whose status a client does not accept: the code
    /// for the status (``Code/unauthorized`` for 401, ``Code/notFound`` for 404, …), the
    /// status, redacted headers, a body snippet, and the server's message and code read from
    /// the body in any of the shapes ``serverMessage`` knows.
    ///
    /// For code that reads responses itself and wants to fail the way a typed call does, such
    /// as a transport for a generated client.
    /// - Parameters:
    ///   - response: The response head.
    ///   - body: Its body, or the start of it.
    public static func unacceptedStatus(_ response: HTTPResponse, body: Data) -> CourierError {
        ErrorMapping.statusError(response, body: body)
    }
}

extension CourierError {
    /// The error for a value that did not decode: ``Code/decodingFailed``, with ``codingPath``
    /// naming the field (`items[1].id`) and a message that says what it is and why.
    ///
    /// For code that decodes bodies itself, such as the layer above a generated client.
    /// - Parameters:
    ///   - error: What the decoder threw.
    ///   - subject: What was being read, put first in the message (an operation's name, a file).
    public static func decodingFailed(_ error: any Error, in subject: String) -> CourierError {
        guard let decodingError = error as? DecodingError else {
            return CourierError(code: .decodingFailed, message: "\(subject): \(error)", underlying: error)
        }
        let (path, reason) = ErrorMapping.describe(decodingError)
        var wrapped = CourierError(code: .decodingFailed, message: "\(subject): \(reason)", underlying: error)
        wrapped.codingPath = path
        return wrapped
    }
}
