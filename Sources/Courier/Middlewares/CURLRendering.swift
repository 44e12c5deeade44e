import Foundation
public import HTTPTypes

/// Renders a request as a `curl` command line for debugging, with secrets redacted.
public enum CURLRendering {
    /// The command line.
    /// - Parameters:
    ///   - request: The request.
    ///   - body: Its body; shown only when held in memory, redacted by ``Redaction/redactedBody(_:contentType:limit:)``.
    /// - Returns: A `curl` command with method, redacted headers, body and URL.
    public static func render(_ request: HTTPRequest, body: HTTPBody? = nil) -> String {
        var parts = ["curl"]
        if request.method != .get { parts.append("-X \(request.method.rawValue)") }
        for field in Redaction.redactedHeaders(request.headerFields) {
            parts.append("-H " + quoted("\(field.name): \(field.value)"))
        }
        if let data = body?.bufferedData, !data.isEmpty {
            parts.append("--data-binary " + quoted(Redaction.redactedBody(data, contentType: request.headerFields[.contentType])))
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
