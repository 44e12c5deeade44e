// Fuzzes the SQLite cache's stored payload reader (`VariantPayload(decoding:)`, over
// `PayloadReader`): the input is the bytes of a `variant.payload` row, as a damaged or
// tampered store could hold them (after decryption, when the store is sealed). A payload that
// decodes is then used as the cache uses a stored response.
import Courier
import CourierFuzzSupport
import CourierSQLite
import Foundation
import HTTPTypes

/// The process's entry point, which SwiftPM links as `main`: runs libFuzzer.
@_cdecl("FuzzCachePayload_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    courier_fuzz_run(argc, argv)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes: [UInt8] = start != nil && count > 0 ? Array(UnsafeRawBufferPointer(start: start, count: count)) : []
    guard let payload = try? VariantPayload(decoding: Data(bytes)) else { return 0 }

    // What decodes re-encodes to bytes that decode to the same payload.
    let again: VariantPayload
    do {
        again = try VariantPayload(decoding: payload.encoded())
    } catch {
        fatalError("FuzzCachePayload: a decoded payload's own encoding did not decode: \(error)")
    }
    guard again == payload else {
        fatalError("FuzzCachePayload: a decoded payload changed through encoding and decoding again")
    }

    // The decoder refuses what no server could have sent, so nothing downstream has to.
    let response = payload.response
    guard response.isWellFormed else {
        fatalError("FuzzCachePayload: decoded a response with status \(response.status) or dates outside the plausible range")
    }

    // What the cache computes from a stored response: its freshness, the Age it sends, its
    // cost against the budget, and the response head.
    for now in [Date(timeIntervalSince1970: 1_750_000_000), response.responseDate, response.responseDate.addingTimeInterval(86_400)] {
        let freshness = Freshness(of: response, now: now)
        guard freshness.age.isFinite, freshness.age >= 0, freshness.lifetime.isFinite, freshness.lifetime >= 0 else {
            fatalError("FuzzCachePayload: age \(freshness.age) or lifetime \(freshness.lifetime) is negative or not finite")
        }
        _ = (freshness.isFresh, freshness.staleness, freshness.ageHeaderValue)
    }
    _ = response.cost
    let head: HTTPResponse = response.response
    _ = head.headerFields.count
    return 0
}
