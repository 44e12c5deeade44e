import Courier
import Foundation
import HTTPTypes

/// Learns the status of a declined WebSocket handshake by sending the same URL and header
/// fields as a plain HTTP GET (`ws` becomes `http`, `wss` becomes `https`).
///
/// `WSClient` reports a declined upgrade without its status; the server's answer to the GET
/// (401 for a refused credential, 404 for a missing resource) is what the upgrade met.
struct HandshakeStatusProbe: Sendable {
    let transport: any Transport

    /// The status, or `nil` when the probe itself failed.
    func status(of handshake: WebSocketHandshake) async -> Int? {
        guard let components = URLComponents(url: handshake.url, resolvingAgainstBaseURL: false),
              let host = components.host
        else { return nil }
        let scheme = components.scheme?.lowercased() == "wss" ? "https" : "http"
        let authority = components.port.map { "\(host):\($0)" } ?? host
        var path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { path += "?" + query }
        let request = HTTPRequest(method: .get, scheme: scheme, authority: authority, path: path, headerFields: handshake.headers)
        var options = RequestOptions()
        options.timeout = .seconds(10)
        do {
            let (response, body) = try await transport.send(
                request,
                body: nil,
                context: RequestContext(endpoint: "websocket.handshake-status", options: options)
            )
            _ = await body?.prefix(upTo: 4_096)
            return response.status.code
        } catch {
            return nil
        }
    }
}
