import ClarityAPI
import Courier
import RadarAPI

/// A Radar client signed by a CLARITY client's session: the same configuration and transport,
/// with the server's top as its base URL (CLARITY's paths start at `/api/v1`, Radar's at `/api`).
func radarClient(sharing clarity: ClarityClient) -> RadarClient {
    RadarClient(client: clarity.client.rebased(to: APIRoot("/api/v1").serverURL(for: clarity.client.configuration.baseURL)))
}
