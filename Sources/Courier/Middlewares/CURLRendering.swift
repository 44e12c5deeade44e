import Foundation
public import HTTPTypes

/// Renders a request as a `curl` command line for debugging, with secrets redacted.
public enum CURLRendering {
    /// The command line.
    /// - Parameters:
    ///   - request: The request.
    ///   - body: Its body. By default only its size is shown; with ``BodyLogging/allowing(keys:)``
    ///     a JSON body held in memory is shown with only those keys' values.
    ///   - bodies: Whether to show the body.
    /// - Returns: A `curl` command with method, redacted headers, body and URL.
    public static func render(_ request: HTTPRequest, body: HTTPBody? = nil, bodies: BodyLogging = .never) -> String {
        var parts = ["curl"]
        if request.method != .get { parts.append("-X \(request.method.rawValue)") }
        for field in Redaction.redactedHeaders(request.headerFields) {
            parts.append("-H " + quoted("\(field.name): \(field.value)"))
        }
        if let data = body?.bufferedData, !data.isEmpty {
            switch bodies {
            case .never:
                parts.append("--data-binary " + quoted("<\(data.count) bytes not logged>"))
            case .allowing(let keys):
                parts.append("--data-binary " + quoted(Redaction.allowListedBody(data, contentType: request.headerFields[.contentType], keys: keys)))
            }
        } else if body != nil {
            parts.append("--data-binary @<streamed body>")
        }
        parts.append(quoted(Redaction.redactedURL(request)))
        return parts.joined(separator: " ")
    }

    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
