import Foundation

/// Takes a `multipart/form-data` body (RFC 7578, RFC 2046 section 5.1) apart into its parts,
/// strictly: every delimiter must be `CRLF--boundary`, every part needs a
/// `Content-Disposition: form-data` with a name, and the body must end with the close
/// delimiter. It exists to check what clients send, so it says what is wrong.
package struct MultipartFormReader: Sendable {
    /// One part of a form.
    package struct Part: Sendable {
        var name: String
        var filename: String?
        var contentType: String?
        var content: [UInt8]
    }

    /// Why a body is not a well-formed form.
    struct Malformed: Error {
        let reason: String
    }

    let boundary: String

    /// Makes a reader for the parts between delimiters made of `boundary`.
    package init(boundary: String) {
        self.boundary = boundary
    }

    /// The boundary parameter of a `multipart/form-data` content type, unquoted.
    package static func boundary(in contentType: String) -> String? {
        let fields = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard fields.first?.lowercased() == "multipart/form-data" else { return nil }
        for field in fields.dropFirst() {
            let pair = field.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            let value = pair[1].hasPrefix("\"") && pair[1].hasSuffix("\"") && pair[1].count >= 2 ? String(pair[1].dropFirst().dropLast()) : pair[1]
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// The parts of `body`, in order.
    /// - Throws: ``Malformed`` with the reason.
    package func parts(of body: [UInt8]) throws -> [Part] {
        let dashBoundary = Array("--\(boundary)".utf8)
        let delimiter = Array("\r\n--\(boundary)".utf8)
        // The first delimiter may open the body or follow a preamble.
        var position: Int
        if body.starts(with: dashBoundary) {
            position = dashBoundary.count
        } else if let found = Self.find(delimiter, in: body, from: 0) {
            position = found + delimiter.count
        } else {
            throw Malformed(reason: "no delimiter --\(boundary)")
        }
        var parts: [Part] = []
        while true {
            if Self.matches(Array("--".utf8), in: body, at: position) {
                return parts
            }
            guard Self.matches(Array("\r\n".utf8), in: body, at: position) else {
                throw Malformed(reason: "a delimiter is not followed by CRLF at byte \(position)")
            }
            position += 2
            guard let headerEnd = Self.find(Array("\r\n\r\n".utf8), in: body, from: position - 2) else {
                throw Malformed(reason: "part \(parts.count + 1) has no blank line after its headers")
            }
            let headerBytes = headerEnd > position ? Array(body[position..<headerEnd]) : []
            var part = try Self.part(headers: headerBytes, index: parts.count + 1)
            let contentStart = headerEnd + 4
            guard let next = Self.find(delimiter, in: body, from: contentStart) else {
                throw Malformed(reason: "part \(parts.count + 1) is not closed by a delimiter")
            }
            part.content = Array(body[contentStart..<next])
            parts.append(part)
            position = next + delimiter.count
            if position >= body.count {
                throw Malformed(reason: "the body ends after a delimiter without the closing --")
            }
        }
    }

    private static func part(headers: [UInt8], index: Int) throws -> Part {
        var name: String?
        var filename: String?
        var contentType: String?
        let text = String(decoding: headers, as: UTF8.self)
        for line in text.components(separatedBy: "\r\n") where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw Malformed(reason: "part \(index) has a header line without a colon: \(line)") }
            let field = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch field {
            case "content-disposition":
                let parameters = value.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                guard parameters.first?.lowercased() == "form-data" else { throw Malformed(reason: "part \(index) is not form-data") }
                for parameter in parameters.dropFirst() {
                    let pair = parameter.split(separator: "=", maxSplits: 1).map(String.init)
                    guard pair.count == 2, pair[1].count >= 2, pair[1].hasPrefix("\""), pair[1].hasSuffix("\"") else {
                        throw Malformed(reason: "part \(index) has an unquoted parameter: \(parameter)")
                    }
                    let unquoted = String(pair[1].dropFirst().dropLast())
                    switch pair[0].lowercased() {
                    case "name": name = unquoted
                    case "filename": filename = unquoted
                    default: break
                    }
                }
            case "content-type":
                contentType = value
            default:
                break
            }
        }
        guard let name else { throw Malformed(reason: "part \(index) has no Content-Disposition name") }
        return Part(name: name, filename: filename, contentType: contentType, content: [])
    }

    private static func matches(_ pattern: [UInt8], in body: [UInt8], at position: Int) -> Bool {
        guard position + pattern.count <= body.count else { return false }
        return body[position..<(position + pattern.count)].elementsEqual(pattern)
    }

    /// The index of the first occurrence of `pattern` in `body` at or after `start`.
    private static func find(_ pattern: [UInt8], in body: [UInt8], from start: Int) -> Int? {
        guard let first = pattern.first, body.count >= pattern.count else { return nil }
        var index = max(0, start)
        let last = body.count - pattern.count
        while index <= last {
            if body[index] == first, matches(pattern, in: body, at: index) { return index }
            index += 1
        }
        return nil
    }
}
