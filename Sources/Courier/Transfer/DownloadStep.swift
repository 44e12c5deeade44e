import HTTPTypes

/// What a download does with the answer to one of its requests: a pure decision over the
/// status, the header fields and the offset it asked to resume from (RFC 9110, sections 13.1.5,
/// 14 and 15.3.7).
enum DownloadStep: Sendable, Hashable {
    /// Write the body from the first byte, emptying the partial file: a 200 (the whole
    /// representation, because no range was asked for, the resource changed, or the server
    /// ignores ranges).
    case writeFromStart(totalBytes: Int64?)
    /// Append the body to the partial file: a 206 whose range starts where the file ends.
    case append(totalBytes: Int64?)
    /// Nothing to fetch: a 416 says the range starts at the end of a representation that
    /// still matches the validator, so the partial file holds it all.
    case alreadyComplete(totalBytes: Int64)
    /// Throw the partial file away and ask again without a range: the answer cannot be
    /// appended (a 206 for another range or another validator, a 416 for a shorter resource).
    case startOver(reason: String)

    /// Decides what to do with an answer.
    /// - Parameters:
    ///   - status: The answer's status (200, 206 or 416; other statuses never reach here).
    ///   - headers: The answer's header fields.
    ///   - offset: The offset the request asked to resume from; 0 when it sent no `Range`.
    ///   - validator: The `If-Range` value sent with the range, if any.
    static func decide(status: Int, headers: HTTPFields, offset: Int64, validator: String?) -> DownloadStep {
        switch status {
        case 206:
            guard let contentRange = headers[.contentRange].flatMap(ContentRange.init), let range = contentRange.range else {
                return .startOver(reason: "a 206 without a usable Content-Range")
            }
            guard range.lowerBound == offset else {
                return .startOver(reason: "a 206 for bytes from \(range.lowerBound), not \(offset)")
            }
            if let validator, let etag = headers[.eTag], validator.hasPrefix("\""), etag != validator {
                return .startOver(reason: "a 206 of another version (ETag \(etag), not \(validator))")
            }
            if offset == 0, let total = contentRange.completeLength, range.upperBound != total - 1 {
                return .startOver(reason: "a 206 for part of the resource when all of it was asked for")
            }
            return .append(totalBytes: contentRange.completeLength)
        case 416:
            let total = headers[.contentRange].flatMap(ContentRange.init)?.completeLength
            if let total, offset > 0, total == offset {
                return .alreadyComplete(totalBytes: total)
            }
            return .startOver(reason: "the server cannot serve bytes from \(offset)")
        default:
            return .writeFromStart(totalBytes: headers[.contentLength].flatMap(Int64.init))
        }
    }

    /// The validator a later request can send as `If-Range` to resume this answer's body: its
    /// strong `ETag`, or else its `Last-Modified` date; `nil` when it has neither (a weak
    /// `ETag` cannot be used), and then the download cannot be resumed safely.
    static func validator(in headers: HTTPFields) -> String? {
        if let etag = headers[.eTag].map({ String(ASCII.trimmed($0)) }), etag.hasPrefix("\"") {
            return etag
        }
        return headers[.lastModified].map { String(ASCII.trimmed($0)) }
    }
}
