public import Courier
public import Foundation
public import HTTPTypes
import Synchronization

/// A `Transport` that answers from a closure and records every request.
///
/// Use it to test policy (what your code sends, how it reacts to statuses) without a
/// network. To test that an engine works, test against a real server instead.
///
/// ```swift
/// let transport = MockTransport { request, _ in
///     request.path == "/users/42" ? try .json(User(id: "42")) : .status(.notFound)
/// }
/// let client = APIClient(baseURL: URL(string: "https://example.test")!, transport: transport)
/// let user: User = try await client.value(for: Request(path: "/users/42"))
/// #expect(transport.requests.count == 1)
/// ```
public final class MockTransport: Transport {
    /// Answers one request: from its head and body bytes to a response.
    public typealias Handler = @Sendable (HTTPRequest, Data?) async throws -> MockResponse

    private let handler: Handler
    private let recorded = Mutex<[RecordedRequest]>([])

    /// Makes a transport that answers with `handler`.
    /// - Parameter handler: Returns the response, or throws to simulate a transport failure
    ///   (throw a `CourierError` with a transport code such as `.cannotConnect`).
    public init(handler: @escaping Handler) {
        self.handler = handler
    }

    /// Makes a transport that answers every request the same way.
    /// - Parameter response: The response.
    public convenience init(always response: MockResponse) {
        self.init { _, _ in response }
    }

    /// Makes a transport that answers with `responses` in order, then fails with
    /// `CourierError.Code.transportFailed` once they run out.
    /// - Parameter responses: The responses, or errors to throw, in order.
    public convenience init(sequence responses: [Result<MockResponse, CourierError>]) {
        let remaining = Mutex(responses[...])
        self.init { _, _ in
            let next = remaining.withLock { queue in queue.popFirst() }
            guard let next else {
                throw CourierError(code: .transportFailed, message: "MockTransport ran out of scripted responses")
            }
            return try next.get()
        }
    }

    /// Every request received so far, in order.
    public var requests: [RecordedRequest] {
        recorded.withLock { $0 }
    }

    /// Forgets the recorded requests.
    public func reset() {
        recorded.withLock { $0.removeAll() }
    }

    /// Records the request, reads its body, and answers with the handler's response.
    public func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let bytes = try await body?.collect(upTo: Int.max)
        recorded.withLock { $0.append(RecordedRequest(request: request, body: bytes, attempt: context.attempt)) }
        try Task.checkCancellation()
        let response = try await handler(request, bytes)
        let head = HTTPResponse(status: response.status, headerFields: response.headers)
        return (head, response.body.isEmpty ? nil : HTTPBody(response.body))
    }
}
