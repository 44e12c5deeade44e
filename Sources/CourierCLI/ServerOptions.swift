import ArgumentParser
import Courier
import CourierAsyncHTTPClient
import Foundation
import RadarAPI
import ReferenceServer

/// Where the `radar` commands send their requests.
struct ServerOptions: ParsableArguments {
    @Option(help: "The server's base URL (default: the API_URL environment variable, else http://127.0.0.1:8080).")
    var server: String?

    @Option(help: "The bearer token (default: the API_TOKEN environment variable, else the reference server's demo token).")
    var token: String?

    /// The base URL to use.
    func baseURL() throws -> URL {
        let text = server ?? ProcessInfo.processInfo.environment["API_URL"] ?? "http://127.0.0.1:8080"
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme.lowercased()) else {
            throw ValidationError("not an http(s) URL: \(text)")
        }
        return url
    }

    /// The token to use.
    var resolvedToken: String {
        token ?? ProcessInfo.processInfo.environment["API_TOKEN"] ?? ReferenceServerConfiguration().demoToken
    }

    /// Runs `body` with a Radar client on a fresh AsyncHTTPClient transport, shut down afterwards.
    func withRadarClient<T>(_ body: (RadarClient) async throws -> T) async throws -> T {
        let transport = AsyncHTTPClientTransport()
        let radar = RadarClient(baseURL: try baseURL(), transport: transport, token: resolvedToken)
        do {
            let result = try await body(radar)
            try await transport.shutdown()
            return result
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }
}
