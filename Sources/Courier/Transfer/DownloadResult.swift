public import Foundation
public import HTTPTypes

/// A finished download: where the file is, how big it is, and how it got there.
public struct DownloadResult: Sendable {
    /// The file, at the destination asked for.
    public var fileURL: URL
    /// The file's size in bytes.
    public var byteCount: Int64
    /// The head of the last response: the 200 or 206 whose body completed the file, or the
    /// 416 that said a resumed partial file was already complete.
    public var response: HTTPResponse
    /// How many requests continued from a partial file with `Range` (after a broken
    /// connection, or from an earlier call's partial file).
    public var resumes: Int
    /// How many times bytes already received were thrown away and the download began again
    /// from zero: the resource changed, or the server did not honour the range.
    public var restarts: Int

    /// Makes a result.
    public init(fileURL: URL, byteCount: Int64, response: HTTPResponse, resumes: Int, restarts: Int) {
        self.fileURL = fileURL
        self.byteCount = byteCount
        self.response = response
        self.resumes = resumes
        self.restarts = restarts
    }
}
