import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files that only their owner may read: a folder with mode 0700, a file with mode
/// 0600 from its first byte, replaced atomically (temporary file, `fsync`, `rename`).
enum OwnerOnlyFile {
    static func save(_ data: Data, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw failure("create", temporary) }
        var written = 0
        let ok = data.withUnsafeBytes { buffer -> Bool in
            while written < buffer.count {
                let result = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result <= 0 { return false }
                written += result
            }
            return fsync(descriptor) == 0
        }
        close(descriptor)
        guard ok, rename(temporary.path, url.path) == 0 else {
            unlink(temporary.path)
            throw failure("write", url)
        }
    }

    private static func failure(_ action: String, _ url: URL) -> CourierError {
        CourierError(code: .invalidRequest, message: "could not \(action) \(url.path): errno \(errno)")
    }
}
