public import Foundation

/// A CLARITY service's health (`GET /api/v1/pat/health`, `GET /api/v1/insights/status`).
///
/// Always current: the server marks it `no-store`.
public struct ServiceStatus: Codable, Sendable, Hashable {
    /// The service, such as `pat-analysis` or `insights`.
    public var service: String
    /// Whether it is working.
    public var status: ServiceHealth
    /// The model behind it, such as `PAT-M`.
    public var modelVersion: String
    /// When the status was taken.
    public var timestamp: Date
    /// Counters and settings the service reports, such as `analyses_completed`.
    public var details: [String: String]

    /// Makes a status.
    public init(service: String, status: ServiceHealth, modelVersion: String, timestamp: Date, details: [String: String] = [:]) {
        self.service = service
        self.status = status
        self.modelVersion = modelVersion
        self.timestamp = timestamp
        self.details = details
    }
}

/// Whether a service is working.
public enum ServiceHealth: String, Codable, Sendable, Hashable {
    /// Working normally.
    case healthy
    /// Working, slowly or in part.
    case degraded
    /// Not working.
    case unhealthy
}
