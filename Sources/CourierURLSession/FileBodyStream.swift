import Courier
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request body that is a whole file, and how it leaves.
struct FileBody: Sendable {
    /// The file, and who counts the bytes sent from it.
    let source: HTTPBody.FileSource
    /// The file an upload task sends from disk; `nil` when the request carries the file as a
    /// stream (``FileBodyStream``).
    let uploadTaskFile: URL?
}

#if canImport(FoundationNetworking)
/// Sends a file body on Linux as a stream of the file, with its `Content-Length`, rather than
/// by an upload task from the file.
///
/// swift-corelibs-foundation's upload task from a file looks the file's attributes up again
/// for every chunk it sends, once a delegate is told of progress (a `stat`, the owner's and
/// group's names from `/etc/passwd` and `/etc/group`, extended attributes): the length of a
/// task's known body is asked afresh each time its byte count moves. A stream body has no
/// length to look up. What a stream costs instead is its framing, which this type sets:
///
/// - libcurl sends a body of unknown length chunked, adding `Transfer-Encoding: chunked`
///   beside the `Content-Length` the request names, which is not a valid request (RFC 9112
///   §6.3: a server must refuse or ignore one of them).
/// - It adds that field only when the request names no `Transfer-Encoding` of its own, and it
///   never sends a field whose value is blank. So the request names `Transfer-Encoding` with a
///   single space: libcurl then sends no `Transfer-Encoding` at all, the body goes out plain,
///   and its `Content-Length` frames it. `URLSessionFileUploadTests` pins the head a server
///   receives.
///
/// The stream is read on swift-corelibs-foundation's work queue as libcurl asks for each
/// chunk; a local file's reads do not wait on anything else.
enum FileBodyStream {
    /// Makes `request`'s body the bytes of the file at `url`, `length` of them.
    /// - Throws: `CourierError.Code.fileSystem` when the file cannot be opened.
    static func attach(_ url: URL, length: Int64, to request: inout URLRequest) throws {
        guard let stream = InputStream(url: url) else {
            throw CourierError(code: .fileSystem, message: "\(url.path) could not be opened for reading")
        }
        request.httpBodyStream = stream
        request.setValue(String(length), forHTTPHeaderField: "Content-Length")
        request.setValue(" ", forHTTPHeaderField: "Transfer-Encoding")
    }
}
#endif
