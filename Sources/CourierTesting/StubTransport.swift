public import Courier
import Foundation
public import HTTPTypes
import Synchronization

/// A `Transport` that answers from a table of responses keyed by request, with an
/// optional artificial delay and a switch that makes it behave as if the device were offline:
/// the mock client of the apps' documents (seed 004), as a transport, so that the whole
/// chain (retries, cache, offline queue) runs above it.
///
/// ```swift
/// let transport = StubTransport()
/// transport.stub(.get, "/api/radars", with: try .json([radar]))
/// transport.stub(.post, "/api/radars", with: .failure(CourierError(code: .serverError, message: "down")))
/// transport.delay = .milliseconds(200)        // every answer takes this long (on its clock)
/// transport.isOffline = true                  // every request fails with .offline
/// ```
///
/// A request is looked up by method and path with its query (`GET /api/radars?limit=20`),
/// then by method and path alone; a request with no stub gets a 404 whose body says so.
/// Every request is recorded, answered or not.
public final class StubTransport: Transport {
    private struct State {
        var responses: [String: Result<MockResponse, CourierError>] = [:]
        var delay: Duration = .zero
        var isOffline = false
        var recorded: [RecordedRequest] = []
    }

    private let state = Mutex(State())
    /// The clock the delay is measured on: a `ManualClock` in a test that must not wait.
    public let clock: any CourierClock

    /// Makes a transport with no stubs.
    /// - Parameter clock: The clock the delay is measured on (the system clock by default).
    public init(clock: any CourierClock = SystemClock()) {
        self.clock = clock
    }

    /// Sets the answer to requests with a method and a path (with or without a query).
    /// - Parameters:
    ///   - method: The request method.
    ///   - path: The path as sent, such as `/api/radars` or `/api/radars?limit=20&offset=0`.
    ///   - response: The response, or the error to throw.
    public func stub(_ method: HTTPRequest.Method, _ path: String, with response: Result<MockResponse, CourierError>) {
        state.withLock { $0.responses[Self.key(method, path)] = response }
    }

    /// Sets the answer to requests with a method and a path.
    /// - Parameters:
    ///   - method: The request method.
    ///   - path: The path as sent, with or without a query.
    ///   - response: The response.
    public func stub(_ method: HTTPRequest.Method, _ path: String, with response: MockResponse) {
        stub(method, path, with: .success(response))
    }

    /// How long every answer takes, on ``clock``; zero by default.
    public var delay: Duration {
        get { state.withLock { $0.delay } }
        set { state.withLock { $0.delay = newValue } }
    }

    /// Whether requests fail with `CourierError.Code.offline` as if the device had no
    /// network (they are still recorded).
    public var isOffline: Bool {
        get { state.withLock { $0.isOffline } }
        set { state.withLock { $0.isOffline = newValue } }
    }

    /// Every request received so far, in order.
    public var requests: [RecordedRequest] {
        state.withLock { $0.recorded }
    }

    /// Records the request, waits the delay, and answers from the table.
    public func send(_ request: HTTPRequest, body: HTTPBody?, context: RequestContext) async throws -> (HTTPResponse, HTTPBody?) {
        let bytes = try await body?.collect(upTo: Int.max)
        let (answer, delay, offline) = state.withLock { state in
            state.recorded.append(RecordedRequest(request: request, body: bytes, attempt: context.attempt))
            let path = request.path ?? "/"
            let withoutQuery = String(path.prefix { $0 != "?" })
            let answer = state.responses[Self.key(request.method, path)] ?? state.responses[Self.key(request.method, withoutQuery)]
            return (answer, state.delay, state.isOffline)
        }
        if offline {
            throw CourierError(code: .offline, message: "the stub transport is offline")
        }
        if delay > .zero {
            do {
                try await clock.sleep(until: clock.now.advanced(by: delay))
            } catch {
                throw CourierError(code: .cancelled, message: "the request was cancelled during the stub's delay", underlying: error)
            }
        }
        try Task.checkCancellation()
        guard let answer else {
            let path = request.path ?? "/"
            return (HTTPResponse(status: .notFound), HTTPBody("no stub for \(request.method.rawValue) \(path)"))
        }
        let response = try answer.get()
        return (HTTPResponse(status: response.status, headerFields: response.headers), response.body.isEmpty ? nil : HTTPBody(response.body))
    }

    private static func key(_ method: HTTPRequest.Method, _ path: String) -> String {
        method.rawValue + " " + path
    }
}
