public import Foundation
public import HTTPTypes

/// The outcome of a call: the decoded value with the response it came from.
public struct Response<Value> {
    /// The decoded value.
    public var value: Value
    /// The response head: status and header fields.
    public var http: HTTPResponse
    /// The raw body bytes the value was decoded from.
    public var data: Data
    /// Timings and counts for the call.
    public var metrics: ResponseMetrics

    /// Makes a response.
    public init(value: Value, http: HTTPResponse, data: Data, metrics: ResponseMetrics) {
        self.value = value
        self.http = http
        self.data = data
        self.metrics = metrics
    }

    /// The response's status.
    public var status: HTTPResponse.Status { http.status }

    /// The response's header fields.
    public var headers: HTTPFields { http.headerFields }
}

extension Response: Sendable where Value: Sendable {}

/// Timings and counts for one call.
public struct ResponseMetrics: Sendable, Hashable {
    /// From handing the request to the chain until the body was decoded.
    public var duration: Duration
    /// Body bytes sent, when known.
    public var bytesSent: Int64?
    /// Body bytes received, as the caller reads them (decoded, when the response was compressed).
    public var bytesReceived: Int
    /// The bytes the body took on the wire when it came compressed and the transport counted
    /// them (AsyncHTTPClient does; URLSession decodes out of sight); `nil` otherwise.
    public var wireBytesReceived: Int?
    /// How many times the request reached the transport (1 unless retried or replayed; 0
    /// when the cache answered).
    public var attempts: Int
    /// Where the response came from: the network, or the cache (fresh, revalidated, or stale).
    public var cacheStatus: CacheStatus
    /// The HTTP version the response came over (`HTTP/2`, `HTTP/1.1`), when it came from the
    /// network and the transport said; `nil` otherwise.
    public var protocolVersion: ProtocolVersion?

    /// Makes metrics.
    public init(duration: Duration, bytesSent: Int64?, bytesReceived: Int, attempts: Int, cacheStatus: CacheStatus = .network) {
        self.duration = duration
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
        self.attempts = attempts
        self.cacheStatus = cacheStatus
        self.wireBytesReceived = nil
    }
}
