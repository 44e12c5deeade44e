import Hummingbird

/// A response body writer that keeps what is written, so a response can be stored and sent again.
///
/// A class, so the bytes can be read after the body consumed the writer; used by one task at a time.
final class ResponseBodyCollector: ResponseBodyWriter {
    /// The bytes written so far.
    private(set) var collected = ByteBuffer()

    func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        collected.writeBuffer(&buffer)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}

    /// The whole body of a response.
    static func collect(_ body: ResponseBody) async throws -> ByteBuffer {
        let collector = ResponseBodyCollector()
        try await body.write(collector)
        return collector.collected
    }
}
