// Fuzzes `RequestTarget`: building a request's target from a path and query items, and
// escaping a path segment. The first input byte picks the base URL; the rest, split at NUL
// bytes, is the path, then query items (`name=value`, or a bare name for an item without a
// value). The path is also escaped on its own with `RequestTarget.pathSegment`.
import Courier
import CourierFuzzSupport
import Foundation

/// The process's entry point, which SwiftPM links as `main`: runs libFuzzer.
@_cdecl("FuzzRequestTarget_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    courier_fuzz_run(argc, argv)
}

/// Base URLs of the kinds clients use: bare, with a path (and a trailing slash), IPv6 with a
/// port and an escape, and one that is not http(s).
private let bases = [
    "https://api.example.test", "https://api.example.test/v1/", "http://[::1]:8080/base%20path", "https://example.com:8443/a/b",
    "ftp://example.com/files",
].map { RequestTarget.Base(URL(string: $0)!) }

/// The bytes that may stand unescaped in a built path and query: RFC 3986's unreserved and
/// sub-delimiter characters, `:`, `@`, `/`, `?`, and `%` (which only starts an escape).
private let allowedInTarget = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/?%".utf8)
/// The bytes a path segment keeps unescaped: the unreserved ones.
private let unreserved = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~".utf8)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes: [UInt8] = start != nil && count > 0 ? Array(UnsafeRawBufferPointer(start: start, count: count)) : []
    let base = bases[Int(bytes.first ?? 0) % bases.count]
    let fields = bytes.dropFirst().split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    let path = fields.first ?? ""
    let query = fields.dropFirst().prefix(8).map { field -> URLQueryItem in
        guard let equals = field.firstIndex(of: "=") else { return URLQueryItem(name: field, value: nil) }
        return URLQueryItem(name: String(field[..<equals]), value: String(field[field.index(after: equals)...]))
    }

    // A segment escapes everything but the unreserved bytes, and unescapes to what it was.
    let segment = RequestTarget.pathSegment(path)
    guard segment.utf8.allSatisfy({ unreserved.contains($0) || $0 == UInt8(ascii: "%") }),
          let decoded = percentDecoded(segment), decoded == Array(path.utf8) else {
        fatalError("FuzzRequestTarget: pathSegment(\(path.debugDescription)) = \(segment.debugDescription) does not unescape to it")
    }

    // Building may refuse (a fragment, a bad escape, a non-http(s) URL); what it builds is
    // http(s), starts with `/`, and holds only allowed bytes, every `%` starting an escape.
    guard let target = try? RequestTarget.make(base: base, path: path, query: query) else { return 0 }
    guard target.scheme == "http" || target.scheme == "https" else {
        fatalError("FuzzRequestTarget: built a target with scheme \(target.scheme.debugDescription)")
    }
    let built = Array(target.pathAndQuery.utf8)
    guard built.first == UInt8(ascii: "/"), built.allSatisfy({ allowedInTarget.contains($0) }), percentDecoded(target.pathAndQuery) != nil else {
        fatalError("FuzzRequestTarget: \(path.debugDescription) with \(query) built \(target.pathAndQuery.debugDescription)")
    }
    _ = target.url
    return 0
}

/// The bytes `text` stands for with its `%XX` escapes decoded; `nil` when a `%` is not followed
/// by two hexadecimal digits.
private func percentDecoded(_ text: String) -> [UInt8]? {
    let bytes = Array(text.utf8)
    var result: [UInt8] = []
    var index = 0
    while index < bytes.count {
        guard bytes[index] == UInt8(ascii: "%") else {
            result.append(bytes[index])
            index += 1
            continue
        }
        guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else { return nil }
        result.append(high << 4 | low)
        index += 3
    }
    return result
}

private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
}
