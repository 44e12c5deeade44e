import ClarityAPI
import Courier
import CourierAsyncHTTPClient
import CourierSQLite
import Foundation
import RadarAPI
import ReferenceServer

/// The client side of a soak, assembled as an app would: the demo account signed in with an
/// `AuthSession` (tokens refresh by themselves), one `APIClient` with an in-memory
/// HTTP cache, an offline queue on SQLite in a temporary folder, and a connectivity monitor
/// with a probe, all over a ``SoakNetworkPath`` on the shared AsyncHTTPClient transport.
struct SoakSession: Sendable {
    /// The CLARITY client that signed in; its `AuthSession` signs every call.
    let clarity: ClarityClient
    /// The Radar client, on the signed client rebased to the server's root.
    let radar: RadarClient
    /// The durable queue of writes that could not be delivered.
    let queue: OfflineQueue
    /// Whether the server is reachable, as far as the client knows.
    let connectivity: ConnectivityMonitor
    /// The network path the fault schedule takes down.
    let network: SoakNetworkPath

    /// Builds the client and signs in; the queue's database goes in `folder` (the caller removes it).
    static func open(baseURL: URL, transport: AsyncHTTPClientTransport, folder: URL) async throws -> SoakSession {
        let network = SoakNetworkPath(base: transport)
        let storage = try SQLiteQueueStorage(url: folder.appendingPathComponent("queue.sqlite"))
        let queue = OfflineQueue(
            storage: storage,
            maxAttempts: 8,
            backoff: Backoff(.exponential(base: .milliseconds(250), multiplier: 2), maxDelay: .seconds(4))
        )
        let probeURL = baseURL.appendingPathComponent("debug").appendingPathComponent("ping")
        let connectivity = ConnectivityMonitor(
            probe: ConnectivityMonitor.Probe(url: probeURL, transport: network, backoff: .exponential(base: .milliseconds(250), maxDelay: .seconds(1)))
        )
        let clarity = ClarityClient(baseURL: baseURL, transport: network) { configuration in
            configuration.cache = HTTPCache(storage: MemoryCacheStorage())
            configuration.offlineQueue = queue
            configuration.connectivity = connectivity
            configuration.timeout = .seconds(10)
        }
        let demo = ReferenceServerConfiguration()
        try await clarity.signIn(email: demo.demoEmail, password: demo.demoPassword)
        let radar = RadarClient(client: clarity.client.rebased(to: baseURL))
        return SoakSession(clarity: clarity, radar: radar, queue: queue, connectivity: connectivity, network: network)
    }
}
