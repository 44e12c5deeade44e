/// How far an upload or a download has come: bytes done, the total when known, and the fraction.
///
/// A ``Transfer`` reports a sequence of these. ``completedBytes`` never goes down while the
/// total stays the same (a retried upload, or a download restarted from zero, holds its
/// progress until the new attempt passes it), and the last value reported for a transfer that
/// succeeded has ``completedBytes`` equal to ``totalBytes``.
///
/// ```swift
/// for await step in transfer.progress {
///     bar.value = step.fractionCompleted ?? 0
/// }
/// ```
public struct TransferProgress: Sendable, Hashable, CustomStringConvertible {
    /// The bytes sent (upload) or written to the file (download) so far.
    public var completedBytes: Int64
    /// The bytes there are in all, when known (from `Content-Length`, `Content-Range`, or the
    /// size of the file or form being uploaded).
    public var totalBytes: Int64?

    /// Makes a progress value.
    /// - Parameters:
    ///   - completedBytes: The bytes done.
    ///   - totalBytes: The bytes in all, when known.
    public init(completedBytes: Int64, totalBytes: Int64?) {
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
    }

    /// The share done, from 0 to 1, when the total is known; an empty transfer is complete.
    public var fractionCompleted: Double? {
        guard let totalBytes else { return nil }
        guard totalBytes > 0 else { return 1 }
        return min(1, Double(completedBytes) / Double(totalBytes))
    }

    /// Whether every byte is done; `false` while the total is unknown.
    public var isComplete: Bool {
        guard let totalBytes else { return false }
        return completedBytes >= totalBytes
    }

    /// `12345/67890 bytes (18.2%)`, or `12345 bytes` when the total is unknown.
    public var description: String {
        guard let totalBytes, let fraction = fractionCompleted else { return "\(completedBytes) bytes" }
        let tenths = (fraction * 1_000).rounded() / 10
        return "\(completedBytes)/\(totalBytes) bytes (\(tenths)%)"
    }
}
