import Courier
import CourierAsyncHTTPClient
import Foundation

/// The runner's side channel to the origin, without any cache: it configures a test
/// (`PUT /config/<uuid>`) and reads what the origin saw (`GET /state/<uuid>`).
///
/// It owns its AsyncHTTPClient transport; call ``shutdown()`` when done.
struct OriginControl: Sendable {
    /// The origin answered a control request with an unexpected status.
    struct UnexpectedStatus: Error, CustomStringConvertible {
        let description: String
    }

    private let client: APIClient
    private let transport: AsyncHTTPClientTransport

    init(serverURL: URL, connections: Int) {
        transport = AsyncHTTPClientTransport(configuration: .init(connectionsPerHost: connections))
        var configuration = ClientConfiguration(baseURL: serverURL, middleware: [], retryPolicy: .none)
        configuration.acceptsStatus = { _ in true }
        client = APIClient(configuration: configuration, transport: transport)
    }

    /// Stores a test's steps on the origin.
    /// - Throws: A `CourierError`, or ``UnexpectedStatus`` unless the origin answers 201.
    func configure(_ uuid: String, steps: [JSONValue]) async throws {
        let body = try JSONEncoder().encode(steps)
        let request = Request<Data>(method: .put, path: "/config/\(uuid)", body: .data(body, contentType: "application/json"))
        let response = try await client.send(request)
        guard response.status.code == 201 else {
            throw UnexpectedStatus(description: "PUT config answered \(response.status.code)")
        }
    }

    /// What the origin saw for a test; empty when it has no state for it.
    /// - Throws: A `CourierError`, or `DecodingError` for a malformed answer.
    func state(_ uuid: String) async throws -> [ObservedExchange] {
        let response = try await client.send(Request<Data>(path: "/state/\(uuid)"))
        guard response.status.code == 200 else { return [] }
        return try JSONDecoder().decode([ObservedExchange].self, from: response.value)
    }

    /// Closes the transport's connections.
    func shutdown() async {
        try? await transport.shutdown()
    }
}
