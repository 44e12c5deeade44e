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

    /// A JSON body as text with only the values of the allowed keys shown (at any depth);
    /// every other value is replaced, and a body of another media type shows only its size.
    /// - Parameters:
    ///   - data: The body.
    ///   - contentType: Its `Content-Type`.
    ///   - keys: The keys whose values may be shown; secret-looking keys stay hidden even when listed.
    ///   - limit: The most bytes shown.
    public static func allowListedBody(_ data: Data, contentType: String?, keys: Set<String>, limit: Int = 2_048) -> String {
        let type = contentType?.lowercased() ?? ""
        if type.contains("json"), let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
           let shown = try? JSONSerialization.data(withJSONObject: allowListed(object, keys: keys, shown: false), options: [.sortedKeys, .fragmentsAllowed]) {
            return clipped(String(decoding: shown, as: UTF8.self), limit: limit)
        }
        return "<\(data.count) bytes\(type.isEmpty ? "" : " of \(type)")>"
    }

    private static func allowListed(_ value: Any, keys: Set<String>, shown: Bool) -> Any {
        if let object = value as? [String: Any] {
            var result = [String: Any]()
            for (key, item) in object {
                result[key] = allowListed(item, keys: keys, shown: keys.contains(key) && !isSensitiveQueryItem(key))
            }
            return result
        }
        if let array = value as? [Any] { return array.map { allowListed($0, keys: keys, shown: shown) } }
        return shown ? value : placeholder
    }

    /// A response body as kept in an error's snippet: JSON with the values of secret-looking
    /// keys replaced at any depth, a form likewise, other text as it is; at most `limit` bytes.
    static func redactedSnippet(_ data: Data, contentType: String?, limit: Int) -> String {
        let type = contentType?.lowercased() ?? ""
        if let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]), object is [String: Any] || object is [Any],
           let redacted = try? JSONSerialization.data(withJSONObject: redactedJSON(object, isSensitive: isSensitiveResponseKey), options: [.sortedKeys]) {
            return String(decoding: redacted.prefix(limit), as: UTF8.self)
        }
        if type.contains("x-www-form-urlencoded") {
            return String(String(redactedPathAndQuery("?" + String(decoding: data.prefix(limit), as: UTF8.self))).dropFirst())
        }
        return scrubbedText(String(decoding: data.prefix(limit), as: UTF8.self))
    }

    /// Text that did not parse (a truncated or malformed JSON body, say) with the string value
    /// after every secret-looking `"key":` replaced, up to its closing quote or the end.
    static func scrubbedText(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "\"") {
            result += rest[...open]
            rest = rest[rest.index(after: open)...]
            guard let close = rest.firstIndex(of: "\"") else { break }
            let key = rest[..<close]
            result += rest[...close]
            rest = rest[rest.index(after: close)...]
            let afterKey = rest.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
            guard isSensitiveResponseKey(String(key)), afterKey.first == ":" else { continue }
            let value = afterKey.dropFirst().drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
            guard value.first == "\"" else { continue }
            result += rest[..<value.startIndex] + "\"" + placeholder + "\""
            var index = value.index(after: value.startIndex)
            var escaped = false
            while index < value.endIndex, escaped || value[index] != "\"" {
                escaped = !escaped && value[index] == "\\"
                index = value.index(after: index)
            }
            rest = index < value.endIndex ? value[value.index(after: index)...] : ""
        }
        return result + rest
    }

    /// A key of a response body whose value is secret: as for query items, except `code`,
    /// which in an answer is an error's code rather than a one-time one.
    private static func isSensitiveResponseKey(_ key: String) -> Bool {
        ASCII.lowercased(key) != "code" && isSensitiveQueryItem(key)
    }

    private static func redactedJSON(_ value: Any, isSensitive: (String) -> Bool = isSensitiveQueryItem) -> Any {
        if let object = value as? [String: Any] {
            var result = [String: Any]()
            for (key, item) in object {
                // A secret-looking key hides its whole value, an object or array included: the
                // names inside (`{"tokens": {"a": …}}`) need not look secret themselves.
                result[key] = isSensitive(key) ? placeholder : redactedJSON(item, isSensitive: isSensitive)
            }
            return result
        }
        if let array = value as? [Any] { return array.map { redactedJSON($0, isSensitive: isSensitive) } }
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
