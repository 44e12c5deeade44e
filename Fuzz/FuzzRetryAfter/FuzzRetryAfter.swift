// Fuzzes `RetryAfter.parse`: the input is a `Retry-After` value.
import Courier
import CourierFuzzSupport
import Foundation

/// The process's entry point, which SwiftPM links as `main`: runs libFuzzer.
@_cdecl("FuzzRetryAfter_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    courier_fuzz_run(argc, argv)
}

/// Clocks to measure a date against: now-ish, the epoch, and the ends of what a clock could say.
private let nows = [
    Date(timeIntervalSince1970: 1_750_000_000), Date(timeIntervalSince1970: 0),
    Date(timeIntervalSinceReferenceDate: -1e11), Date(timeIntervalSinceReferenceDate: 1e11),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes: [UInt8] = start != nil && count > 0 ? Array(UnsafeRawBufferPointer(start: start, count: count)) : []
    let text = String(decoding: bytes, as: UTF8.self)
    for now in nows {
        // A wait is never negative: a date in the past is a wait of zero, a negative number invalid.
        if let wait = RetryAfter.parse(text, now: now), wait < .zero {
            fatalError("FuzzRetryAfter: a negative wait \(wait) for \(text.debugDescription)")
        }
    }
    return 0
}
