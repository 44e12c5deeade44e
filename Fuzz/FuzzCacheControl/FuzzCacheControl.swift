// Fuzzes `CacheControl`: the input is the text of one or more `Cache-Control` field lines,
// separated by line feeds.
import Courier
import CourierFuzzSupport

/// The process's entry point, which SwiftPM links as `main`: runs libFuzzer.
@_cdecl("FuzzCacheControl_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    courier_fuzz_run(argc, argv)
}

/// Directives the cache reads, and spellings of them that must find the same directive.
private let knownNames = [
    "max-age", "s-maxage", "max-stale", "min-fresh", "stale-if-error", "stale-while-revalidate", "no-cache", "no-store",
    "must-revalidate", "private", "public", "immutable", "only-if-cached", "MAX-AGE", "No-Cache",
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes: [UInt8] = start != nil && count > 0 ? Array(UnsafeRawBufferPointer(start: start, count: count)) : []
    let text = String(decoding: bytes, as: UTF8.self)
    let control = CacheControl(text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))

    // The names the input itself uses (what precedes `=` in each comma-separated part), as
    // well as the known ones.
    let ownNames = text.split(separator: ",").prefix(16).map { part in
        String(part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            .trimmingASCIIBlanks()
    }
    for name in knownNames + ownNames {
        _ = control.argument(name)
        switch control.seconds(name) {
        case .seconds(let value)?:
            // A valid delta-seconds is a whole number from 0 to 2^31 - 1 (larger ones are capped).
            guard (0...Int(Int32.max)).contains(value) else {
                fatalError("FuzzCacheControl: \(name) has \(value) seconds, outside 0...2^31-1")
            }
            guard control.validSeconds(name) == value, control.has(name) else {
                fatalError("FuzzCacheControl: seconds, validSeconds and has disagree on \(name)")
            }
        case .invalid?:
            guard control.validSeconds(name) == nil, control.has(name) else {
                fatalError("FuzzCacheControl: an invalid \(name) has valid seconds, or is absent")
            }
        case nil:
            guard !control.has(name), control.validSeconds(name) == nil, control.argument(name) == nil else {
                fatalError("FuzzCacheControl: \(name) has no seconds but is present")
            }
        }
    }
    _ = (control.noStore, control.noCache, control.mustRevalidate, control.onlyIfCached, control.immutable)
    return 0
}

extension String {
    /// The text without leading and trailing spaces and tabs.
    fileprivate func trimmingASCIIBlanks() -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
        return String(self[first...last])
    }
}
