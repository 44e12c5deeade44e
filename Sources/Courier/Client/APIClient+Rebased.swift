public import Foundation

extension APIClient {
    /// A client with the same configuration and transport (the same session, cache, queue,
    /// middleware and connection pool) whose paths are relative to another base URL.
    ///
    /// For two APIs on one server whose documents start their paths at different roots (one
    /// at `/api/v1`, one at the server's top): sign in once, and use one client per root.
    ///
    /// ```swift
    /// let clarity = ClarityClient(baseURL: server, transport: transport)   // …/api/v1
    /// let radar = RadarClient(client: clarity.client.rebased(to: server))   // …/api/radars
    /// ```
    ///
    /// The two clients keep their own in-flight deduplication. Writes the new client queues in
    /// the configuration's ``OfflineQueue`` are delivered by the original client, which the
    /// queue serves: queued writes hold absolute URLs, and replays go through the same stages.
    /// - Parameter baseURL: The new base URL.
    /// - Returns: The new client.
    public func rebased(to baseURL: URL) -> APIClient {
        var configuration = configuration
        configuration.baseURL = baseURL
        return APIClient(configuration: configuration, transport: transport, attachesQueue: false)
    }
}
