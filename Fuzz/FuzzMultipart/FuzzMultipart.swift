// Fuzzes the reference server's `MultipartFormReader`. The input is a `Content-Type` value,
// a line feed, then the body; when the content type names no boundary, the boundary is "b"
// (and an input without a line feed is all body).
import CourierFuzzSupport
import ReferenceServer

/// The process's entry point, which SwiftPM links as `main`: runs libFuzzer.
@_cdecl("FuzzMultipart_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    courier_fuzz_run(argc, argv)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes: [UInt8] = start != nil && count > 0 ? Array(UnsafeRawBufferPointer(start: start, count: count)) : []
    let contentType: String
    let body: [UInt8]
    if let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) {
        contentType = String(decoding: bytes[..<newline], as: UTF8.self)
        body = Array(bytes[(newline + 1)...])
    } else {
        contentType = ""
        body = bytes
    }
    let boundary = MultipartFormReader.boundary(in: contentType) ?? "b"
    // A malformed form throws `Malformed`, which the server answers with a 400: fine.
    _ = try? MultipartFormReader(boundary: boundary).parts(of: body)
    return 0
}
