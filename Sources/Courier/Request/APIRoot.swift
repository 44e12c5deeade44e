public import Foundation

/// The path prefix under which an API lives on its server, such as `/api/v1`, and the two ways
/// an app may give that server's address.
///
/// API documents differ in what they call the base URL. One gives
/// `https://api.example.com/api/v1` and writes its paths from there (`/auth/login`); another
/// gives `https://api.example.com` and writes `/api/radars`. A client made from such a document
/// should accept either form and never send `/api/v1/api/v1/…`. `APIRoot` does that: an
/// endpoint library declares the root its paths are relative to, and normalises the base URL
/// it is given with ``baseURL(for:)``.
///
/// ```swift
/// let root = APIRoot("/api/v1")
/// root.baseURL(for: URL(string: "https://host")!)          // https://host/api/v1
/// root.baseURL(for: URL(string: "https://host/api/v1")!)   // https://host/api/v1
/// root.baseURL(for: URL(string: "https://host/eu/")!)      // https://host/eu/api/v1
/// ```
public struct APIRoot: Sendable, Hashable {
    /// The root's path: segments joined by `/`, with a leading `/` and no trailing one; empty
    /// for an API that lives at the server's top.
    public let path: String

    /// Makes a root.
    /// - Parameter path: The prefix, such as `/api/v1` or `api/v1/`; leading and trailing
    ///   slashes do not matter.
    public init(_ path: String) {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        self.path = segments.isEmpty ? "" : "/" + segments.joined(separator: "/")
    }

    /// The base URL that paths relative to this root are sent against: the given URL with the
    /// root appended to its path, unless its path already ends with the root.
    ///
    /// The query and fragment of the given URL, if any, are dropped: a base URL names a place.
    /// - Parameter server: The server's address as the app was given it, with or without the root.
    /// - Returns: The URL whose path ends with the root.
    public func baseURL(for server: URL) -> URL {
        let current = Self.trimmedPath(of: server)
        if path.isEmpty || current.hasSuffix(path) {
            return Self.replacingPath(of: server, with: current)
        }
        return Self.replacingPath(of: server, with: current + path)
    }

    /// The server's base URL without this root: the given URL with the root removed from the
    /// end of its path, if it ends with it.
    ///
    /// Use it for an API whose paths already include the root (`/api/radars`), so a base URL
    /// given as `https://host/api` is not sent `/api/api/radars`.
    /// - Parameter server: The server's address as the app was given it, with or without the root.
    /// - Returns: The URL whose path does not end with the root.
    public func serverURL(for server: URL) -> URL {
        let current = Self.trimmedPath(of: server)
        guard !path.isEmpty, current.hasSuffix(path) else { return Self.replacingPath(of: server, with: current) }
        return Self.replacingPath(of: server, with: String(current.dropLast(path.count)))
    }

    /// The percent-encoded path with no trailing `/`, compared segment-wise by ``baseURL(for:)``.
    private static func trimmedPath(of url: URL) -> String {
        let encoded = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
        let segments = encoded.split(separator: "/", omittingEmptySubsequences: true)
        return segments.isEmpty ? "" : "/" + segments.joined(separator: "/")
    }

    private static func replacingPath(of url: URL, with path: String) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        components.percentEncodedPath = path
        components.query = nil
        components.fragment = nil
        return components.url ?? url
    }
}
