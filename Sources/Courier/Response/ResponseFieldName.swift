package import HTTPTypes

/// Response field names, converted once per field of every response an engine hands back.
///
/// `HTTPField.Name(_:)` validates a name and lowercases it into a new string. Servers send the
/// same few names on most responses, in one of two spellings (`Content-Type` or
/// `content-type`), so those map to ready-made names and only the rest are validated.
package enum ResponseFieldName {
    /// The name for a spelling an engine received, or `nil` when it is not a valid field name.
    /// - Parameter spelling: The name as it came on the wire.
    package static func named(_ spelling: String) -> HTTPField.Name? {
        known[spelling] ?? HTTPField.Name(spelling)
    }

    /// Response field names as servers usually spell them, each with the name
    /// `HTTPField.Name(_:)` would make of that spelling.
    package static let known: [String: HTTPField.Name] = {
        let names: [HTTPField.Name] = [
            .acceptRanges, .age, .cacheControl, .connection, .contentEncoding, .contentLanguage,
            .contentLength, .contentRange, .contentType, .date, .eTag, .expires, .lastModified,
            .location, .retryAfter, .server, .setCookie, .transferEncoding, .vary, .wwwAuthenticate,
        ]
        var table = [String: HTTPField.Name]()
        for name in names {
            table[name.rawName] = name
            table[name.canonicalName] = HTTPField.Name(name.canonicalName)
        }
        return table
    }()
}
