// Fuzzes `HTTPDate.parse` (all three forms) and checks it against `HTTPDate.format`.
import Courier
import CourierFuzzSupport
import Foundation

/// The process's entry point, which SwiftPM links as `main`: runs libFuzzer.
@_cdecl("FuzzHTTPDate_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    courier_fuzz_run(argc, argv)
}

/// Clocks that place RFC 850's two-digit years: 2025 and 1970.
private let nows = [Date(timeIntervalSince1970: 1_750_000_000), Date(timeIntervalSince1970: 0)]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes: [UInt8] = start != nil && count > 0 ? Array(UnsafeRawBufferPointer(start: start, count: count)) : []
    let text = String(decoding: bytes, as: UTF8.self)
    for now in nows {
        guard let date = HTTPDate.parse(text, now: now) else { continue }
        // Every parsed date is a whole number of seconds, so formatting loses nothing. The
        // formatter writes the year unpadded: only a four-digit year makes an IMF-fixdate
        // (29 bytes), and that must read back as the same date and format the same way.
        let formatted = HTTPDate.format(date)
        guard formatted.utf8.count == 29 else { continue }
        guard let again = HTTPDate.parse(formatted, now: now) else {
            fatalError("FuzzHTTPDate: \(text.debugDescription) parsed, but its formatting \(formatted) did not")
        }
        guard again == date, HTTPDate.format(again) == formatted else {
            fatalError("FuzzHTTPDate: \(text.debugDescription) -> \(formatted) -> \(HTTPDate.format(again)): not the same date")
        }
    }
    return 0
}
