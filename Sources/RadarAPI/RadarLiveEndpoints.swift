public import Foundation
import Courier

/// Where a radar's live updates are served.
public enum RadarLiveEndpoints {
    /// `ws(s)://…/api/ws/radar/{id}`: the WebSocket of one radar's updates, for a server at
    /// `baseURL` (`http` becomes `ws`, `https` becomes `wss`).
    /// - Parameters:
    ///   - baseURL: The server's base URL, such as `http://127.0.0.1:8080`.
    ///   - radarId: The radar's id.
    /// - Returns: The WebSocket URL, or `nil` if `baseURL` is not an http(s) URL.
    public static func webSocketURL(baseURL: URL, radarId: String) -> URL? {
        guard var components = URLComponents(url: RadarEndpoints.root.serverURL(for: baseURL), resolvingAgainstBaseURL: false) else { return nil }
        switch components.scheme?.lowercased() {
        case "http": components.scheme = "ws"
        case "https": components.scheme = "wss"
        default: return nil
        }
        let base = components.percentEncodedPath.hasSuffix("/") ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        components.percentEncodedPath = base + "/api/ws/radar/" + RequestTarget.pathSegment(radarId)
        components.percentEncodedQuery = nil
        return components.url
    }

    /// `/api/radars/{id}/events`: the event stream of one radar's updates, for a
    /// `CourierWebSocket.ServerSentEventSource`.
    /// - Parameter radarId: The radar's id.
    /// - Returns: The path.
    public static func eventStreamPath(radarId: String) -> String {
        "/api/radars/" + RequestTarget.pathSegment(radarId) + "/events"
    }
}
