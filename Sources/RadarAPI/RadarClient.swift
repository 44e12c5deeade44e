public import Courier
public import Foundation
public import RadarCore
import HTTPTypes

/// A client for the Radar API on Courier.
///
/// It takes everything from its caller (base URL, transport, credential), so there is no
/// shared instance: make one where the app is assembled and pass it on.
///
/// ```swift
/// let radar = RadarClient(baseURL: url, transport: AsyncHTTPClientTransport(), token: token)
/// let page = try await radar.list()
/// let fresh = try await radar.refresh(id: page.items[0].id)
/// ```
///
/// Every method throws `CourierError`.
public struct RadarClient: Sendable {
    /// The client that sends the requests.
    public let client: APIClient

    /// Makes a Radar client on an existing `APIClient`, whose middleware must
    /// sign requests for the Radar API.
    /// - Parameter client: The client.
    public init(client: APIClient) {
        self.client = client
    }

    /// Makes a Radar client with the default chain and a bearer token.
    /// - Parameters:
    ///   - baseURL: The server, such as `https://api.radar.app` as seed 000 gives it; a URL
    ///     that already ends in `/api` works too (``RadarEndpoints/root``).
    ///   - transport: The engine.
    ///   - token: The bearer token.
    ///   - networkMiddleware: Per-attempt middleware, such as a `LoggingMiddleware`.
    public init(baseURL: URL, transport: any Transport, token: String, networkMiddleware: [any Middleware] = []) {
        var configuration = ClientConfiguration(baseURL: RadarEndpoints.root.serverURL(for: baseURL))
        configuration.middleware.append(BearerTokenMiddleware(token: token))
        configuration.networkMiddleware = networkMiddleware
        self.client = APIClient(configuration: configuration, transport: transport)
    }

    /// One page of radars, with the total when the server sends `X-Total-Count` (the
    /// documented body is the bare array). See ``RadarEndpoints/list(limit:offset:)``.
    public func list(limit: Int = 20, offset: Int = 0) async throws -> RadarPage {
        Self.page(try await client.send(RadarEndpoints.list(limit: limit, offset: offset)), limit: limit, offset: offset)
    }

    /// A page made from the list's answer: the array, and the total from `X-Total-Count` when
    /// the server sent a valid one.
    /// - Parameters:
    ///   - response: The answer to ``RadarEndpoints/list(limit:offset:)``.
    ///   - limit: The page size asked for.
    ///   - offset: The offset asked for.
    public static func page(_ response: Response<[Radar]>, limit: Int, offset: Int) -> RadarPage {
        let total = HTTPField.Name(RadarPage.totalCountHeader)
            .flatMap { response.headers[$0] }
            .flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            .flatMap { $0 >= 0 ? $0 : nil }
        return RadarPage(items: response.value, total: total, limit: limit, offset: offset)
    }

    /// One radar. See ``RadarEndpoints/get(id:)``.
    public func get(id: String) async throws -> Radar {
        try await client.value(for: RadarEndpoints.get(id: id))
    }

    /// Creates a radar. See ``RadarEndpoints/create(topic:isPublic:)``.
    public func create(topic: String, isPublic: Bool? = nil) async throws -> Radar {
        try await client.value(for: RadarEndpoints.create(topic: topic, isPublic: isPublic))
    }

    /// Deletes a radar. See ``RadarEndpoints/delete(id:)``.
    public func delete(id: String) async throws {
        try await client.send(RadarEndpoints.delete(id: id))
    }

    /// Refreshes a radar. See ``RadarEndpoints/refresh(id:)``.
    public func refresh(id: String) async throws -> Radar {
        try await client.value(for: RadarEndpoints.refresh(id: id))
    }

    /// A radar's opinions. See ``RadarEndpoints/opinions(id:)``.
    public func opinions(id: String) async throws -> [Opinion] {
        try await client.value(for: RadarEndpoints.opinions(id: id))
    }

    /// A radar's trend. See ``RadarEndpoints/trends(id:days:)``.
    public func trends(id: String, days: Int = 7) async throws -> Trend {
        try await client.value(for: RadarEndpoints.trends(id: id, days: days))
    }

    /// Interprets a topic. See ``RadarEndpoints/interpret(topic:)``.
    public func interpret(topic: String) async throws -> Interpretation {
        try await client.value(for: RadarEndpoints.interpret(topic: topic))
    }
}
