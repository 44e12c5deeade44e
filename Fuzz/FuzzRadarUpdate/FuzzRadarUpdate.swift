// Fuzzes the decoding of Radar live updates: the input is one WebSocket or event-stream
// message, decoded as the clients do (`RadarUpdateMessage.decode(from:)`, which uses
// `RadarJSON.decoder()`), then merged into a radar as `RadarLiveView` does.
import CourierFuzzSupport
import Foundation
import RadarCore

/// The process's entry point, which SwiftPM links as `main`: runs libFuzzer.
@_cdecl("FuzzRadarUpdate_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    courier_fuzz_run(argc, argv)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes: [UInt8] = start != nil && count > 0 ? Array(UnsafeRawBufferPointer(start: start, count: count)) : []
    guard let message = try? RadarUpdateMessage.decode(from: Data(bytes)) else { return 0 }
    _ = message.hashValue
    guard case .update(let update) = message else { return 0 }
    _ = (update.type, update.radarId)

    // Merged into a radar it is about, an update changes it at most once: the same update
    // again changes nothing (a repeated opinion replaces itself, a position or a refresh is
    // already in place).
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    var radar = Radar(
        id: update.radarId, userId: "u", topic: "t", interpretation: Interpretation(text: "t", category: "c"),
        lastPolledAt: date, createdAt: date, updatedAt: date
    )
    radar.apply(update)
    let afterFirst = radar
    let changedAgain = radar.apply(update)
    if changedAgain || radar != afterFirst {
        fatalError("FuzzRadarUpdate: applying the same \(update.type) update twice changed the radar twice")
    }

    // Encoding what was decoded, and decoding that, must not crash (the result may differ:
    // the encoder drops fractions of seconds).
    if let encoded = try? RadarUpdateMessage.encode(update) {
        _ = try? RadarUpdateMessage.decode(from: encoded)
    }
    return 0
}
