package import HTTPTypes

/// A content coding Courier decodes on its own: what a response's `Content-Encoding` says
/// was applied to its body, and what requests offer in `Accept-Encoding`.
///
/// Courier offers `gzip, deflate` (``acceptEncoding``) and decodes exactly those two, with
/// `x-gzip` read as `gzip` (RFC 9110, section 8.4.1.3). `deflate` is the zlib format (RFC 1950),
/// as HTTP defines it; a raw DEFLATE stream labelled `deflate` is not accepted.
///
/// A coding Courier does not know (`br`, `zstd`, a private one) is left alone, as browsers
/// and OkHttp leave it: the body arrives as it came, with its `Content-Encoding`, for the
/// caller to decode (a JSON call fails with ``CourierError/Code/decodingFailed``), and a cache
/// stores it as it is, which the HTTP caching tests require.
package enum ContentCoding: String, Sendable, Hashable {
    /// The gzip file format (RFC 1952); several members in a row are one body.
    case gzip
    /// The zlib format (RFC 1950).
    case deflate

    /// The `Accept-Encoding` value Courier sends when the caller sets none.
    package static let acceptEncoding = "gzip, deflate"

    /// The coding to undo for a response's `Content-Encoding` fields: `nil` when they name
    /// none (or only `identity`), or a coding Courier does not decode (the body is left alone).
    /// - Throws: ``CourierError/Code/contentDecodingFailed`` for more than one coding it knows
    ///   stacked on the body.
    package static func of(_ fields: HTTPFields) throws -> ContentCoding? {
        guard fields.contains(.contentEncoding) else { return nil }
        var codings: [String] = []
        for field in fields where field.name == .contentEncoding {
            for token in field.value.split(separator: ",") {
                let name = token.trimmingSpaces().lowercased()
                if name.isEmpty || name == "identity" { continue }
                codings.append(name)
            }
        }
        guard let first = codings.first else { return nil }
        let known = codings.map(Self.known)
        // A coding Courier does not know, anywhere in the list: the body goes through as it came.
        if known.contains(nil) { return nil }
        guard codings.count == 1 else {
            throw CourierError(
                code: .contentDecodingFailed,
                message: "the response body has stacked content codings (\(codings.joined(separator: ", "))); Courier decodes one"
            )
        }
        return Self.known(first)
    }

    /// Whether a body with these fields is still in a coding Courier decodes (gzip, deflate,
    /// or several stacked): the transport left it encoded for a caller that asked for that.
    package static func leftEncoded(_ fields: HTTPFields) -> Bool {
        guard fields.contains(.contentEncoding) else { return false }
        do {
            return try of(fields) != nil
        } catch {
            return true
        }
    }

    private static func known(_ name: String) -> ContentCoding? {
        switch name {
        case "gzip", "x-gzip": return .gzip
        case "deflate": return .deflate
        default: return nil
        }
    }

    /// The response as a caller sees it once its body is decoded: without `Content-Encoding`
    /// (the body no longer has one) and without `Content-Length` (it counted the encoded bytes).
    package static func decodedHead(_ response: HTTPResponse) -> HTTPResponse {
        var decoded = response
        decoded.headerFields[.contentEncoding] = nil
        decoded.headerFields[.contentLength] = nil
        return decoded
    }
}

/// How far a compressed response body may inflate: the checks that stop a small body which
/// would decode to gigabytes (a "zip bomb"), as pure functions.
package struct DecodingLimits: Sendable, Hashable {
    /// The most decoded bytes, the call's ``RequestOptions/maxResponseBytes``; `nil` for none.
    package var maxDecodedBytes: Int?
    /// The most decoded bytes per encoded byte, past ``ratioAllowance``.
    package var maxRatio: Int
    /// Decoded bytes always allowed, whatever the ratio: a small body of repeated bytes
    /// compresses far better than any ratio a large one reaches.
    package static let ratioAllowance = 1 << 20

    package init(maxDecodedBytes: Int?, maxRatio: Int) {
        self.maxDecodedBytes = maxDecodedBytes
        self.maxRatio = max(1, maxRatio)
    }

    /// The limits a call's options set.
    package init(options: RequestOptions) {
        self.init(maxDecodedBytes: options.maxResponseBytes, maxRatio: options.maxDecompressionRatio ?? RequestOptions.defaultMaxDecompressionRatio)
    }

    /// The error for a body that has decoded to `decoded` bytes from `wire` encoded ones,
    /// `nil` while both limits hold.
    package func violation(decoded: Int, wire: Int) -> CourierError? {
        if let maxDecodedBytes, decoded > maxDecodedBytes {
            return CourierError(code: .responseTooLarge, message: "the decoded response body grew past the limit of \(maxDecodedBytes) bytes")
        }
        let (allowed, overflow) = wire.multipliedReportingOverflow(by: maxRatio)
        if !overflow, decoded > Self.ratioAllowance, decoded > allowed {
            return CourierError(
                code: .responseTooLarge,
                message: "the response body inflates more than \(maxRatio) times (\(wire) encoded bytes became over \(decoded)); it looks like a decompression bomb"
            )
        }
        return nil
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
