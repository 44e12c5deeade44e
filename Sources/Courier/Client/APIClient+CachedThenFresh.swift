import Foundation
import HTTPTypes

extension APIClient {
    /// Sends a GET with ``CachePolicy/staleWhileRevalidate`` and delivers what the cache holds
    /// at once, then the fresh response when the background refresh ends.
    ///
    /// The sequence has one element when the cache had nothing (the network response) or a
    /// fresh entry (the cached response), and two when the entry was stale: the stored
    /// response (``CacheStatus/stale``), then the server's (``CacheStatus/network`` or
    /// ``CacheStatus/revalidated``). This is the "show cached data, then update" pattern of
    /// list screens:
    ///
    /// ```swift
    /// for try await page in client.cachedThenFresh(RadarEndpoints.list()) {
    ///     radars = page.value                // cached first, then fresh
    /// }
    /// ```
    ///
    /// A failed refresh ends the sequence with its ``CourierError`` after the stale element,
    /// so the caller can keep showing the stale data with the error. Without a cache on the
    /// client, the sequence is the network response alone.
    /// - Parameter request: The request; its cache policy is replaced.
    /// - Returns: The responses, oldest first.
    public func cachedThenFresh<Value: Decodable & Sendable>(_ request: Request<Value>) -> AsyncThrowingStream<Response<Value>, any Error> {
        var revalidating = request
        revalidating.options.cachePolicy = .staleWhileRevalidate
        let prepared = revalidating
        let decoder = request.decoder ?? configuration.decoder
        let decode: @Sendable (Data, HTTPResponse, CallRecord?) throws -> Value = { data, _, _ in try decoder.decode(Value.self, from: data) }
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let (first, httpRequest, record) = try await receiveCall(prepared, decode: decode)
                    continuation.yield(first)
                    if first.metrics.cacheStatus == .stale, let refresh = record.backgroundRefresh {
                        continuation.yield(try await freshResponse(from: refresh, request: httpRequest, record: record, decode: decode))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The response of a background refresh, validated and decoded like any call's.
    private func freshResponse<Value>(
        from refresh: Task<RefreshedResponse, any Error>, request: HTTPRequest, record: CallRecord,
        decode: (Data, HTTPResponse, CallRecord?) throws -> Value
    ) async throws -> Response<Value> {
        let started = ContinuousClock.now
        do {
            let refreshed = try await withTaskCancellationHandler {
                try await refresh.value
            } onCancel: {
                refresh.cancel()
            }
            let (response, data) = (refreshed.response, refreshed.body)
            try await validate(response, body: HTTPBody(data))
            let value: Value
            do {
                value = try decode(data, response, nil)
            } catch {
                throw ErrorMapping.decodingError(error, data: data, response: response)
            }
            let metrics = ResponseMetrics(
                duration: ContinuousClock.now - started, bytesSent: nil, bytesReceived: data.count, attempts: 1,
                cacheStatus: refreshed.cacheStatus
            )
            return Response(value: value, http: response, data: data, metrics: metrics)
        } catch {
            throw ErrorMapping.courierError(from: error, request: request, record: record)
        }
    }
}
