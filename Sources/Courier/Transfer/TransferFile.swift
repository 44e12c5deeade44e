import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An open file of a transfer, read or written with POSIX calls.
///
/// Transfers use plain descriptors rather than `InputStream` (whose `streamError` traps in
/// swift-corelibs-foundation) or `FileHandle` (whose errors lose the `errno`), so that a full
/// disk or a missing permission ends in a ``CourierError`` with code
/// ``CourierError/Code/fileSystem`` that says which. Reads and writes block the calling
/// thread for one chunk at a time, which on a local disk is a short wait.
///
/// A `final class` that closes its descriptor when released; it is used by one task at a
/// time and is not `Sendable`.
final class TransferFile {
    private let descriptor: Int32
    /// The file's path, for error messages.
    let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit {
        close(descriptor)
    }

    /// Opens a file to read it from the start.
    /// - Throws: ``CourierError/Code/fileSystem`` when it cannot be opened.
    static func openForReading(_ url: URL) throws -> TransferFile {
        let path = url.path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw fileError("open", path: path) }
        return TransferFile(descriptor: descriptor, path: path)
    }

    /// Opens a file to write it, creating it with mode 0600 (owner only) if needed, and
    /// makes sure an existing file is owner-only too. Writes go to the end of the file. A
    /// symbolic link in its place is refused rather than followed.
    /// - Throws: ``CourierError/Code/fileSystem`` when it cannot be opened.
    static func openForAppending(_ url: URL) throws -> TransferFile {
        let path = url.path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw fileError("create", path: path) }
        let file = TransferFile(descriptor: descriptor, path: path)
        guard fchmod(descriptor, 0o600) == 0 else { throw fileError("restrict the permissions of", path: path) }
        return file
    }

    /// The size of the file at `url` in bytes, or `nil` when there is no file there.
    /// - Throws: ``CourierError/Code/fileSystem`` for any failure other than a missing file.
    static func size(of url: URL) throws -> Int64? {
        var info = stat()
        guard stat(url.path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw fileError("read the size of", path: url.path)
        }
        return Int64(info.st_size)
    }

    /// Reads up to `count` bytes; `nil` at the end of the file.
    ///
    /// The bytes are read into fresh, uninitialised memory that the returned `Data` owns: no
    /// zero-filling of a chunk that is about to be overwritten (measured by `courier bench
    /// --only transfer`).
    func read(upTo count: Int) throws -> Data? {
        let size = Swift.max(1, count)
        guard let memory = malloc(size) else { throw Self.fileError("allocate a buffer to read", path: path, code: ENOMEM) }
        var received: Int
        repeat {
            received = posixRead(descriptor, memory, size)
        } while received < 0 && errno == EINTR
        guard received > 0 else {
            let code = errno
            free(memory)
            if received < 0 { throw Self.fileError("read", path: path, code: code) }
            return nil
        }
        return Data(bytesNoCopy: memory, count: received, deallocator: .free)
    }

    /// Writes all of `bytes` at the end of the file.
    func write(_ bytes: some ContiguousBytes) throws {
        let failed = bytes.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let result = posixWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if result < 0 {
                    if errno == EINTR { continue }
                    return true
                }
                offset += result
            }
            return false
        }
        if failed { throw Self.fileError("write to", path: path) }
    }

    /// Flushes the file's bytes to the disk.
    func synchronize() throws {
        guard fsync(descriptor) == 0 else { throw Self.fileError("flush", path: path) }
    }

    /// Moves `source` to `destination`, replacing what is there, in one atomic step: a reader
    /// of `destination` sees the old file or the new one, never a part.
    static func move(_ source: URL, to destination: URL) throws {
        guard rename(source.path, destination.path) == 0 else {
            throw fileError("move \(source.path) to", path: destination.path)
        }
    }

    /// Removes the file at `url`, if there is one.
    static func remove(_ url: URL) {
        unlink(url.path)
    }

    /// The error for the failed call that set `errno`.
    static func fileError(_ action: String, path: String, code: Int32 = errno) -> CourierError {
        let reason: String
        switch code {
        case ENOSPC, EDQUOT: reason = "the disk is full"
        case EACCES, EPERM: reason = "permission denied"
        case ENOENT: reason = "no such file or folder"
        case EROFS: reason = "the file system is read-only"
        case EISDIR: reason = "it is a folder"
        case ELOOP: reason = "it is a symbolic link"
        default: reason = String(cString: strerror(code))
        }
        let underlying: (any Error)? = POSIXErrorCode(rawValue: code).map { POSIXError($0) }
        return CourierError(code: .fileSystem, message: "could not \(action) \(path): \(reason) (errno \(code))", underlying: underlying)
    }
}

// File-level wrappers: inside `TransferFile`, its own `read` and `write` methods would hide the C functions.
private func posixRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

private func posixWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
