import AsyncHTTPClient
import Courier
import Foundation
import NIOCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The transfers ``TransferBenchmark`` times: the same download and upload, by Courier and
/// by raw AsyncHTTPClient. Each one checks that every byte arrived.
struct TransferContenders: Sendable {
    let baseURL: URL
    let raw: HTTPClient
    let client: APIClient
    let folder: URL
    let source: URL
    let bytes: Int

    struct Mismatch: Error, CustomStringConvertible {
        let description: String
    }

    private struct Received: Decodable, Sendable {
        let bytes: Int
    }

    // MARK: - Download

    /// Raw AsyncHTTPClient: the response body's buffers written to a file as they arrive, then renamed.
    func rawDownload() async throws {
        let destination = folder.appendingPathComponent("raw-download.bin")
        let partial = folder.appendingPathComponent(".raw-download.partial")
        let response = try await raw.execute(HTTPClientRequest(url: "\(baseURL.absoluteString)/debug/blobs/bench?size=\(bytes)"), timeout: .seconds(600))
        guard response.status == .ok else { throw Mismatch(description: "raw download answered \(response.status)") }
        let descriptor = open(partial.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Mismatch(description: "cannot create \(partial.path)") }
        var written = 0
        do {
            for try await buffer in response.body {
                try buffer.withUnsafeReadableBytes { chunk in
                    var offset = 0
                    while offset < chunk.count {
                        let result = write(descriptor, chunk.baseAddress! + offset, chunk.count - offset)
                        guard result > 0 else { throw Mismatch(description: "write failed: errno \(errno)") }
                        offset += result
                    }
                }
                written += buffer.readableBytes
            }
        } catch {
            close(descriptor)
            throw error
        }
        close(descriptor)
        guard rename(partial.path, destination.path) == 0 else { throw Mismatch(description: "rename failed: errno \(errno)") }
        try Self.check(destination, bytes: bytes)
        try FileManager.default.removeItem(at: destination)
    }

    /// Courier: `APIClient.download(_:to:)`.
    func courierDownload() async throws {
        try await courierDownload(bytes: bytes)
    }

    /// Courier: `APIClient.download(_:to:)` of a blob of `bytes` bytes.
    func courierDownload(bytes: Int) async throws {
        let destination = folder.appendingPathComponent("courier-download.bin")
        let request = Request<Data>(path: "/debug/blobs/bench", query: [URLQueryItem(name: "size", value: "\(bytes)")])
        let result = try await client.download(request, to: destination).value()
        guard result.byteCount == Int64(bytes), result.resumes == 0 else { throw Mismatch(description: "courier downloaded \(result.byteCount) bytes, resumed \(result.resumes) times") }
        try Self.check(destination, bytes: bytes)
        try FileManager.default.removeItem(at: destination)
    }

    // MARK: - Upload

    /// Raw AsyncHTTPClient: a stream of buffers read straight from the file, with a `Content-Length`.
    func rawUpload() async throws {
        var request = HTTPClientRequest(url: "\(baseURL.absoluteString)/debug/upload?digest=none")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        request.body = .stream(RawFileBuffers(path: source.path), length: .known(Int64(bytes)))
        let response = try await raw.execute(request, timeout: .seconds(600))
        let body = try await response.body.collect(upTo: 1 << 20)
        let received = try JSONDecoder().decode(Received.self, from: Data(body.readableBytesView))
        guard response.status == .ok, received.bytes == bytes else {
            throw Mismatch(description: "raw upload answered \(response.status) with \(received.bytes) bytes")
        }
    }

    /// Courier: `APIClient.upload(_:)` of `.file(_:)`.
    func courierUpload() async throws {
        let request = Request<Received>(
            method: .post,
            path: "/debug/upload",
            query: [URLQueryItem(name: "digest", value: "none")],
            body: try .file(source)
        )
        let received = try await client.upload(request).value().value
        guard received.bytes == bytes else { throw Mismatch(description: "courier uploaded \(received.bytes) bytes") }
    }

    static func check(_ url: URL, bytes: Int) throws {
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int
        guard size == bytes else { throw Mismatch(description: "\(url.lastPathComponent) holds \(size ?? -1) bytes, not \(bytes)") }
    }
}

/// A file as a sequence of `ByteBuffer`s read straight into each buffer: the raw baseline's
/// upload body.
struct RawFileBuffers: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let path: String

    struct AsyncIterator: AsyncIteratorProtocol {
        let path: String
        var descriptor: Int32 = -1

        mutating func next() async throws -> ByteBuffer? {
            if descriptor < 0 {
                descriptor = open(path, O_RDONLY | O_CLOEXEC)
                guard descriptor >= 0 else { throw TransferContenders.Mismatch(description: "cannot open \(path)") }
            }
            var buffer = ByteBufferAllocator().buffer(capacity: 256 << 10)
            let fd = descriptor
            let count = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: 256 << 10) { space in
                Swift.max(0, read(fd, space.baseAddress, 256 << 10))
            }
            guard count > 0 else {
                close(descriptor)
                return nil
            }
            return buffer
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(path: path)
    }
}
