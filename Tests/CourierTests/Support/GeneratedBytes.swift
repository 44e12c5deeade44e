import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bodies the reference server generates (`/debug/bytes`): byte `i` is `UInt8(i % 251)`.
enum GeneratedBytes {
    private static let period = 251
    /// The pattern, whole periods of it, about a MiB.
    private static let periods: [UInt8] = (0..<(period * 4096)).map { UInt8($0 % period) }

    /// Whether `chunk` holds the pattern's bytes from `offset` on.
    ///
    /// Compared with `memcmp` a window at a time: a loop over each byte takes seconds for a
    /// few MiB in a debug build (tens under the thread sanitizer), all of it on one of the
    /// concurrency pool's few threads, which every other test of the run then waits for.
    static func match(_ chunk: Data, at offset: Int) -> Bool {
        chunk.withUnsafeBytes { bytes in
            periods.withUnsafeBytes { pattern in
                var checked = 0
                while checked < bytes.count {
                    let start = (offset + checked) % period
                    let length = min(bytes.count - checked, pattern.count - start)
                    guard memcmp(bytes.baseAddress! + checked, pattern.baseAddress! + start, length) == 0 else { return false }
                    checked += length
                }
                return true
            }
        }
    }
}
