import Foundation

/// A place in a server's URL space, such as `https://api.example.com/api/radars`: the unit
/// of ``HTTPCache/invalidate(_:)``. A stored response lies *under* a prefix when its URL is
/// the prefix, or continues it with `/…` or `?…`: `/api/radars?limit=20`, `/api/radars/r_1`
/// and `/api/radars/r_1/opinions` lie under `/api/radars`; `/api/radarsX` does not.
///
/// Pure functions, shared by every ``CacheStorage`` so that all of them agree on what a
/// prefix covers.
public enum CachePrefix {
    /// The prefix as stored keys are compared with it: the query and any trailing `/`
    /// removed, the scheme and authority lowercased.
    /// - Parameter url: An absolute URL (`scheme://authority/path`).
    /// - Returns: The normalised prefix.
    public static func normalized(_ url: String) -> String {
        var text = Substring(url)
        if let mark = text.utf8.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            text = text[..<mark]
        }
        while text.utf8.last == UInt8(ascii: "/") { text = text.dropLast() }
        guard let schemeEnd = text.range(of: "://") else { return String(text) }
        let authorityStart = schemeEnd.upperBound
        let pathStart = text[authorityStart...].firstIndex(of: "/") ?? text.endIndex
        return ASCII.lowercased(text[..<pathStart]) + text[pathStart...]
    }

    /// Every prefix a stored URL lies under, from the origin down to its full path:
    /// `https://h/a/b?q` gives `https://h`, `https://h/a` and `https://h/a/b`.
    /// - Parameter url: A stored response's absolute URL (a ``CacheKey/url``).
    /// - Returns: The normalised prefixes, shortest first.
    public static func prefixes(of url: String) -> [String] {
        let full = normalized(url)
        guard let schemeEnd = full.range(of: "://") else { return [full] }
        var prefixes: [String] = []
        var index = full[schemeEnd.upperBound...].firstIndex(of: "/") ?? full.endIndex
        prefixes.append(String(full[..<index]))
        while index < full.endIndex {
            let next = full[full.index(after: index)...].firstIndex(of: "/") ?? full.endIndex
            prefixes.append(String(full[..<next]))
            index = next
        }
        return prefixes
    }

    /// Whether a stored URL lies under a prefix.
    /// - Parameters:
    ///   - url: The stored response's absolute URL.
    ///   - prefix: The prefix, normalised or not.
    public static func contains(_ url: String, under prefix: String) -> Bool {
        prefixes(of: url).contains(normalized(prefix))
    }
}
