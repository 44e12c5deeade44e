public import Foundation

extension APIClient {
    /// Downloads a response body to a file, with progress, resuming when the connection breaks.
    ///
    /// The body is written chunk by chunk to a hidden partial file next to `destination`
    /// (owner-only), so memory stays flat whatever the size; when the last byte is written,
    /// the file is moved onto `destination` in one atomic step, replacing any file there. The
    /// destination never holds part of a download, and it keeps the partial file's owner-only
    /// permissions (0600): widen them if others must read it.
    ///
    /// When the connection breaks, the download continues from the bytes on disk with
    /// `Range: bytes=N-` and `If-Range` (the first answer's strong ETag, or its
    /// Last-Modified date): a 206 is appended; a 200 means the resource changed (or the server
    /// ignores ranges) and the download starts again from zero. A partial file left by a failed
    /// or cancelled call is resumed the same way by the next call with the same URL and
    /// destination (see ``DownloadOptions``). Only one download at a time may use a destination.
    ///
    /// The request goes through the client's chain (authentication, retry of the request
    /// itself, redirects) but not the cache. Its per-attempt timeout bounds the whole body,
    /// so give a large download a timeout to match.
    ///
    /// ```swift
    /// let download = client.download(Request<Data>(path: "/exports/2026.zip"), to: destination)
    /// for await step in download.progress { bar.value = step.fractionCompleted ?? 0 }
    /// let file = try await download.value().fileURL
    /// ```
    /// - Parameters:
    ///   - request: The request; its response type is ignored.
    ///   - destination: Where the file goes; its folder must exist.
    ///   - options: Resumption and partial-file behaviour.
    /// - Returns: The transfer; its value says where the file is and how it got there. It fails
    ///   with a ``CourierError``: the server's 4xx or 5xx, ``CourierError/Code/connectionLost``
    ///   when the body stays cut short after the resume attempts, or
    ///   ``CourierError/Code/fileSystem`` when the file cannot be written (disk full, no permission).
    public func download<Value>(
        _ request: Request<Value>,
        to destination: URL,
        options: DownloadOptions = DownloadOptions()
    ) -> Transfer<DownloadResult> {
        let request = request.decoding(Data.self)
        return Transfer { reporter in
            let target = try RequestTarget.make(baseURL: self.configuration.baseURL, path: request.path, query: request.query)
            let download = FileDownload(
                client: self,
                request: request,
                partial: PartialDownload(destination: destination.standardizedFileURL),
                source: PartialDownload.source(of: "\(target.scheme)://\(target.authority)\(target.pathAndQuery)"),
                options: options
            )
            return try await download.run(reporter: reporter)
        }
    }
}
