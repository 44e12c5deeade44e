public import Foundation
public import HTTPTypes

/// Hides secrets before anything is logged or attached to an error.
///
/// Header fields whose names carry credentials (Authorization, Proxy-Authorization, Cookie,
/// Set-Cookie, and names containing `token`, `secret`, `password`, `api-key`, `session`)
/// and query items whose names look like secrets (`access_token`, `refresh_token`,
/// `api_key`, `password`, `signature`, `code`, …) have their values replaced by
/// ``placeholder``. User info in a URL (`user:pass@`) is hidden too, and so are the values of
/// secret-looking keys in JSON and form bodies (``redactedBody(_:contentType:limit:)``).
public enum Redaction {
    /// What stands in for a hidden value.
    public static let placeholder = "[REDACTED]"

    private static let sensitiveHeaderNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "x-csrf-token",
    ]
    private static let sensitiveNameParts = ["token", "secret", "password", "passwd", "api-key", "apikey", "api_key", "session", "auth", "signature", "credential"]
    private static let sensitiveQueryNames: Set<String> = ["code", "key", "sig", "jwt", "otp", "pin"]

    /// Whether a header field's value must not be shown.
    /// - Parameter name: The field's name.
    public static func isSensitiveHeader(_ name: HTTPField.Name) -> Bool {
        let lowered = name.canonicalName
        return sensitiveHeaderNames.contains(lowered) || sensitiveNameParts.contains { ASCII.contains(lowered, $0) }
    }

    /// Whether a query item's value must not be shown.
    /// - Parameter name: The item's name.
    public static func isSensitiveQueryItem(_ name: String) -> Bool {
        let lowered = ASCII.lowercased(name.removingPercentEncoding ?? name)
        return sensitiveQueryNames.contains(lowered) || sensitiveNameParts.contains { ASCII.contains(lowered, $0) }
    }

    /// The header fields with sensitive values replaced.
    /// - Parameter fields: The fields.
    public static func redactedHeaders(_ fields: HTTPFields) -> HTTPFields {
        var result = HTTPFields()
        for field in fields {
            result.append(isSensitiveHeader(field.name) ? HTTPField(name: field.name, value: placeholder) : field)
        }
        return result
    }

    /// The request's URL with sensitive query values replaced.
    /// - Parameter request: The request.
    public static func redactedURL(_ request: HTTPRequest) -> String {
        let origin = "\(request.scheme ?? "http")://\(redactedAuthority(request.authority ?? ""))"
        return origin + redactedPathAndQuery(request.path ?? "/")
    }

    /// A URL or path with sensitive query values and user info replaced.
    /// - Parameter url: The URL or path as text.
    public static func redactedURL(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return redactedPathAndQuery(url) }
        let afterScheme = url[schemeEnd.upperBound...]
        let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" } ?? afterScheme.endIndex
        let authority = redactedAuthority(String(afterScheme[..<authorityEnd]))
        return url[..<schemeEnd.upperBound] + authority + redactedPathAndQuery(String(afterScheme[authorityEnd...]))
    }

    /// A request or response body as text safe to log: JSON with the values of secret-looking
    /// keys (`password`, `refreshToken`, `client_secret`, …) replaced, form fields likewise,
    /// and for any other media type only the size.
    /// - Parameters:
    ///   - data: The body.
    ///   - contentType: Its `Content-Type`.
    ///   - limit: The most bytes shown.
    public static func redactedBody(_ data: Data, contentType: String?, limit: Int = 2_048) -> String {
        let type = contentType?.lowercased() ?? ""
        if type.contains("json"), let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
           let redacted = try? JSONSerialization.data(withJSONObject: redactedJSON(object), options: [.sortedKeys, .fragmentsAllowed]) {
            return clipped(String(decoding: redacted, as: UTF8.self), limit: limit)
        }
        if type.contains("x-www-form-urlencoded") {
            return clipped(String(redactedPathAndQuery("?" + String(decoding: data, as: UTF8.self)).dropFirst()), limit: limit)
        }
        return "<\(data.count) bytes\(type.isEmpty ? "" : " of \(type)")>"
    }

    private static func redactedJSON(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            var result = [String: Any]()
            for (key, item) in object {
                result[key] = isSensitiveQueryItem(key) && !(item is [String: Any]) && !(item is [Any]) ? placeholder : redactedJSON(item)
            }
            return result
        }
        if let array = value as? [Any] { return array.map(redactedJSON) }
        return value
    }

    private static func clipped(_ text: String, limit: Int) -> String {
        text.utf8.count <= limit ? text : String(decoding: text.utf8.prefix(limit), as: UTF8.self) + "…"
    }

    private static func redactedAuthority(_ authority: String) -> String {
        guard let at = authority.lastIndex(of: "@") else { return authority }
        return placeholder + "@" + authority[authority.index(after: at)...]
    }

    private static func redactedPathAndQuery(_ pathAndQuery: String) -> String {
        guard let mark = pathAndQuery.firstIndex(of: "?") else { return pathAndQuery }
        let path = pathAndQuery[..<mark]
        let items = pathAndQuery[pathAndQuery.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false)
        let redacted = items.map { item -> String in
            guard let equals = item.firstIndex(of: "=") else { return String(item) }
            let name = String(item[..<equals])
            return isSensitiveQueryItem(name) ? "\(name)=\(placeholder)" : String(item)
        }
        return path + "?" + redacted.joined(separator: "&")
    }
}
