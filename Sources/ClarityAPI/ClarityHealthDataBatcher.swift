public import Courier
import Foundation

extension ClarityClient {
    /// The offline queue's rule for health data (seed 001's batching): queued uploads
    /// (`POST /api/v1/health-data/`) of the same user and source go as one upload of all their
    /// metrics, in order, at most `maxMetrics` metrics a call (the service takes 1,000). The
    /// last write's `client_timestamp` and `sync_token` stand for the batch. Each write is still
    /// reported delivered or dead-lettered on its own.
    ///
    /// ```swift
    /// let queue = OfflineQueue(storage: storage, batchers: [ClarityClient.healthDataBatcher()])
    /// ```
    /// - Parameter maxMetrics: The most metrics one upload carries.
    public static func healthDataBatcher(maxMetrics: Int = 1_000) -> WriteBatcher {
        WriteBatcher(
            name: "clarity-health-data",
            maxWrites: maxMetrics,
            maxWeight: maxMetrics,
            batchKey: { write in
                guard write.method == "POST", URLComponents(string: write.url)?.path.hasSuffix("/api/v1/health-data/") == true,
                      let upload = try? JSONSerialization.jsonObject(with: write.body) as? [String: Any],
                      let user = upload["user_id"] as? String, upload["metrics"] is [Any] else { return nil }
                return "\(write.url) \(user) \(upload["upload_source"] as? String ?? "")"
            },
            weight: { write in
                ((try? JSONSerialization.jsonObject(with: write.body) as? [String: Any])?["metrics"] as? [Any])?.count ?? 1
            },
            combine: { writes in
                var combined: [String: Any] = [:]
                var metrics: [Any] = []
                for write in writes {
                    guard let upload = try JSONSerialization.jsonObject(with: write.body) as? [String: Any] else {
                        throw CourierError(code: .invalidRequest, message: "a queued health-data write is not an upload")
                    }
                    combined.merge(upload) { _, later in later }
                    metrics += upload["metrics"] as? [Any] ?? []
                }
                combined["metrics"] = metrics
                guard let url = writes.first?.url else { throw CourierError(code: .invalidRequest, message: "an empty batch") }
                return WriteBatcher.Combined(method: "POST", url: url, body: try JSONSerialization.data(withJSONObject: combined, options: [.sortedKeys]))
            }
        )
    }
}
