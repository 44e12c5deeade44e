/// How ``APIClient/download(_:to:options:)`` downloads: resumption and what happens to the
/// partial file.
public struct DownloadOptions: Sendable, Hashable {
    /// How many times in a row a broken download is resumed (or started again) without a
    /// single new byte reaching the file before the download fails. Each attempt that makes
    /// progress starts the count again, so a long download over a flaky link continues as
    /// long as it moves. 0 never resumes within a call.
    public var resumeAttempts: Int
    /// How long to wait before resuming, on the client's clock.
    public var resumeDelay: Duration
    /// Whether a partial file left by an earlier call for the same URL and destination is
    /// resumed (with `Range` and `If-Range`) rather than fetched again from zero.
    public var resumesPartialFile: Bool
    /// Whether the partial file is kept when the download fails or is cancelled, for a later
    /// call to resume; otherwise it is removed.
    public var keepsPartialFile: Bool
    /// Whether the partial file's record and the finished file are flushed to the disk
    /// (`fsync`), so that a power cut cannot leave a destination file with missing bytes. Off by
    /// default: the move is atomic either way, and flushing costs time (on ext4, a flush can
    /// also write out every other file waiting in the page cache). Without it, a power cut can
    /// lose the record, and the next call then downloads from zero.
    public var synchronizesToDisk: Bool
    /// The largest file accepted, in bytes, or `nil` for no limit. A response that announces
    /// more (`Content-Length`, or a `Content-Range` total) is refused before its body is read,
    /// and one that grows past it stops there; the download fails with
    /// ``CourierError/Code/responseTooLarge`` and its partial file is removed.
    public var maxBytes: Int64?

    /// Makes options; every parameter has the default most downloads want.
    /// - Parameters:
    ///   - resumeAttempts: Resumptions in a row without progress before failing (3).
    ///   - resumeDelay: The wait before resuming (250 ms).
    ///   - resumesPartialFile: Whether an earlier call's partial file is resumed (yes).
    ///   - keepsPartialFile: Whether the partial file is kept on failure (yes).
    ///   - synchronizesToDisk: Whether to `fsync` the record and the file (no).
    ///   - maxBytes: The largest file accepted (no limit).
    public init(
        resumeAttempts: Int = 3,
        resumeDelay: Duration = .milliseconds(250),
        resumesPartialFile: Bool = true,
        keepsPartialFile: Bool = true,
        synchronizesToDisk: Bool = false,
        maxBytes: Int64? = nil
    ) {
        self.resumeAttempts = resumeAttempts
        self.resumeDelay = resumeDelay
        self.resumesPartialFile = resumesPartialFile
        self.keepsPartialFile = keepsPartialFile
        self.synchronizesToDisk = synchronizesToDisk
        self.maxBytes = maxBytes.map { max(0, $0) }
    }
}
