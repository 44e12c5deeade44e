import Foundation

/// The process's resident memory, for tests and benchmarks that check that a large transfer
/// keeps memory flat.
///
/// On Linux it reads `VmRSS` (resident now) and `VmHWM` (the peak) from `/proc/self/status`,
/// and resets the peak by writing `5` to `/proc/self/clear_refs`. Elsewhere every reading is
/// `nil`: measure with Instruments there.
///
/// ```swift
/// ResidentMemory.resetPeak()
/// let before = try #require(ResidentMemory.current())
/// _ = try await client.download(request, to: file).value()
/// let growth = (ResidentMemory.peak() ?? 0) - before
/// ```
public enum ResidentMemory {
    /// The bytes resident now, or `nil` where that cannot be read.
    public static func current() -> Int? {
        field("VmRSS:")
    }

    /// The most bytes resident since the process started or since ``resetPeak()``, or `nil`.
    public static func peak() -> Int? {
        field("VmHWM:")
    }

    /// Makes the peak start again from the memory resident now.
    /// - Returns: Whether the kernel accepted the reset (Linux 4.0 and later).
    @discardableResult
    public static func resetPeak() -> Bool {
        #if os(Linux)
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do {
            try handle.write(contentsOf: Data("5".utf8))
            return true
        } catch {
            return false
        }
        #else
        return false
        #endif
    }

    /// A `kB` field of `/proc/self/status`, in bytes.
    private static func field(_ name: String) -> Int? {
        #if os(Linux)
        // `/proc` files report a size of zero, so read until the end rather than by size.
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/status") else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.readToEnd() else { return nil }
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") where line.hasPrefix(name) {
            let number = line.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) }
            return number.map { $0 * 1_024 }
        }
        return nil
        #else
        return nil
        #endif
    }
}
