import Foundation

/// The chunks of a ``MultipartFormData`` body: generated header and boundary bytes, and each
/// part's content read from its own body only when the transport asks for it.
struct MultipartChunks: AsyncSequence, Sendable {
    typealias Element = Data

    /// A piece of the form: bytes ready to send, or a part's content to read.
    enum Segment: Sendable {
        case bytes(Data)
        case body(HTTPBody)
    }

    let segments: [Segment]

    struct AsyncIterator: AsyncIteratorProtocol {
        let segments: [Segment]
        var index = 0
        var current: HTTPBody.Iterator?

        mutating func next() async throws -> Data? {
            while true {
                if var iterator = current {
                    let chunk = try await iterator.next()
                    current = iterator
                    if let chunk {
                        if chunk.isEmpty { continue }
                        return chunk
                    }
                    current = nil
                }
                guard index < segments.count else { return nil }
                let segment = segments[index]
                index += 1
                switch segment {
                case .bytes(let data):
                    if !data.isEmpty { return data }
                case .body(let body):
                    current = body.makeAsyncIterator()
                }
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(segments: segments)
    }
}
