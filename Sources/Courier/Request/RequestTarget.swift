public import Foundation

/// Where a request goes: scheme, authority, and the path with its query, ready for `HTTPRequest`.
///
/// Building it is a pure function of the base URL, the request's path and its query items,
/// so the rules are tested without I/O:
/// - a relative path is appended to the base URL's path; an `http(s)://` path is used as it is;
/// - characters that cannot appear in a path or query (spaces, non-ASCII) are percent-encoded,
///   existing `%XX` escapes are kept, and a query written in the path is kept as written;
/// - a fragment, a malformed `%` escape, or a scheme other than http(s) is rejected.
public struct RequestTarget: Sendable, Hashable {
    /// `http` or `https`.
    public var scheme: String
    /// The host, with `[…]` around IPv6 addresses, and the port when it is not implied.
    public var authority: String
    /// The percent-encoded path followed by `?query` when there is one.
    public var pathAndQuery: String

    /// Builds the target of a request.
    /// - Parameters:
    ///   - baseURL: The client's base URL.
    ///   - path: The request's path, relative or absolute.
    ///   - query: Query items to append.
    /// - Returns: The target.
    /// - Throws: ``CourierError`` with ``CourierError/Code/invalidRequest`` when the path
    ///   cannot name one resource unambiguously.
    public static func make(baseURL: URL, path: String, query: [URLQueryItem]) throws -> RequestTarget {
        try make(base: Base(baseURL), path: path, query: query)
    }

    /// A base URL taken apart once, so that building each request's target does not parse it again.
    public struct Base: Sendable, Hashable {
        let scheme: String
        let authority: String
        let path: String
        let error: CourierError.Code?
        let source: String

        /// Takes a base URL apart.
        /// - Parameter url: The client's base URL.
        public init(_ url: URL) {
            source = url.absoluteString
            if let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
               let (scheme, authority) = try? RequestTarget.schemeAndAuthority(components, source: url.absoluteString) {
                self.scheme = scheme
                self.authority = authority
                self.path = components.percentEncodedPath
                self.error = nil
            } else {
                self.scheme = ""
                self.authority = ""
                self.path = ""
                self.error = .invalidRequest
            }
        }
    }

    /// Builds the target of a request against a base URL taken apart once.
    /// - Parameters:
    ///   - base: The client's base URL, taken apart.
    ///   - path: The request's path, relative or absolute.
    ///   - query: Query items to append.
    /// - Returns: The target.
    /// - Throws: ``CourierError`` with ``CourierError/Code/invalidRequest``.
    public static func make(base: Base, path: String, query: [URLQueryItem]) throws -> RequestTarget {
        if path.utf8.contains(UInt8(ascii: "#")) {
            throw invalid("a request path must not contain a fragment ('#'): \(path)")
        }
        let (scheme, authority, basePath, rest) = try split(base: base, path: path)
        let (rawPath, rawQuery) = splitQuery(rest)
        let encodedPath = try PercentEncoding.encode(rawPath, allowing: PercentEncoding.pathCharacters, what: "path")
        let encodedQuery = try rawQuery.map { try PercentEncoding.encode($0, allowing: PercentEncoding.queryCharacters, what: "query") }

        // One string, built in place: the target is made on every call.
        var pathAndQuery = ""
        pathAndQuery.reserveCapacity(basePath.utf8.count + encodedPath.utf8.count + (encodedQuery?.utf8.count ?? 0) + 32 * query.count + 2)
        // Byte checks: `hasPrefix` and `hasSuffix` compare characters, which costs more.
        if !basePath.isEmpty {
            pathAndQuery += basePath.utf8.last == UInt8(ascii: "/") ? basePath.dropLast() : Substring(basePath)
        }
        if encodedPath.utf8.first != UInt8(ascii: "/") { pathAndQuery += "/" }
        pathAndQuery += encodedPath

        var separator = "?"
        if let encodedQuery, !encodedQuery.isEmpty {
            pathAndQuery += separator
            pathAndQuery += encodedQuery
            separator = "&"
        }
        for item in query {
            pathAndQuery += separator
            pathAndQuery += PercentEncoding.encodeComponent(item.name)
            if let value = item.value {
                pathAndQuery += "="
                pathAndQuery += PercentEncoding.encodeComponent(value)
            }
            separator = "&"
        }
        return RequestTarget(scheme: scheme, authority: authority, pathAndQuery: pathAndQuery)
    }

    /// Escapes a value for use as one path segment: everything but unreserved characters,
    /// `/` included, is percent-encoded, so an id like `a/b c` stays one segment.
    /// - Parameter value: The segment's value.
    /// - Returns: The escaped segment.
    public static func pathSegment(_ value: String) -> String {
        PercentEncoding.encodeSegment(value)
    }

    /// The target as a URL, for logs, errors and engines that take URLs.
    public var url: URL? {
        URL(string: "\(scheme)://\(authority)\(pathAndQuery)")
    }

    private static func split(base: Base, path: String) throws -> (String, String, String, String) {
        // A relative path (the usual case) starts with "/" or a segment, never with "http".
        if let first = path.utf8.first, first | 0x20 == UInt8(ascii: "h"), isAbsoluteHTTPURL(path) {
            guard let components = URLComponents(string: path) else {
                throw invalid("not a valid absolute URL: \(path)")
            }
            let (scheme, authority) = try schemeAndAuthority(components, source: path)
            let afterAuthority = components.percentEncodedPath
                + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
            return (scheme, authority, "", afterAuthority)
        }
        guard base.error == nil else {
            throw invalid("not a valid http(s) base URL: \(base.source)")
        }
        return (base.scheme, base.authority, base.path, path)
    }

    fileprivate static func schemeAndAuthority(_ components: URLComponents, source: String) throws -> (String, String) {
        guard let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw invalid("only http and https URLs are supported: \(source)")
        }
        guard let host = components.host, !host.isEmpty else {
            throw invalid("the URL has no host: \(source)")
        }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let authority = components.port.map { "\(bracketed):\($0)" } ?? bracketed
        return (scheme, authority)
    }

    private static func isAbsoluteHTTPURL(_ path: String) -> Bool {
        let lowered = ASCII.lowercased(path.prefix(8))
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }

    private static func splitQuery(_ path: String) -> (String, String?) {
        // Searched by byte: finding a `Character` would break the text into grapheme clusters.
        let bytes = path.utf8
        guard let mark = bytes.firstIndex(of: UInt8(ascii: "?")) else { return (path, nil) }
        return (String(decoding: bytes[..<mark], as: UTF8.self), String(decoding: bytes[bytes.index(after: mark)...], as: UTF8.self))
    }

    private static func invalid(_ message: String) -> CourierError {
        CourierError(code: .invalidRequest, message: message)
    }
}
