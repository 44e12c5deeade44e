import Courier
import CourierTesting
import Foundation
import HTTPTypes
import ReferenceServer
import Testing

/// On Linux, the session `URLSessionTransport` makes runs its delegate calls on
/// swift-corelibs-foundation's work queue, where a synchronous call back into the session
/// (`cancel()`, making a task) would deadlock; these pin down that calls, cancellations and
/// refusals still all end. Each test has a time limit, so a deadlock fails it instead of
/// hanging the run.
@Suite("Transports end every call: many at once with cancellations, and a refused body", .timeLimit(.minutes(1)))
struct URLSessionDelegateCallTests {
    private func get(_ base: URL, _ path: String) -> HTTPRequest {
        HTTPRequest(method: .get, scheme: "http", authority: "\(base.host!):\(base.port!)", path: path)
    }

    @Test(arguments: TransportKind.allCases)
    func manyCallsAtOnceWithHalfCancelledAllEnd(_ kind: TransportKind) async throws {
        // Chunked, so that URLSession streams each body through the delegate; small, so that a
        // slow run (the thread sanitizer's, beside the rest of the suite) is not a timeout.
        let count = 32 << 10
        try await withReferenceServer { url in
            try await withTransport(kind) { transport in
                var configuration = ClientConfiguration(baseURL: url)
                // No deadline: a call that never ends fails the suite's time limit instead.
                configuration.timeout = nil
                let client = APIClient(configuration: configuration, transport: transport)
                let outcomes = try await withThrowingTaskGroup(of: Result<Int, CourierError>.self) { group in
                    for index in 0..<40 {
                        let request = Request<Data>(path: "/debug/bytes", query: [
                            URLQueryItem(name: "count", value: "\(count)"),
                            URLQueryItem(name: "chunked", value: "1"),
                            URLQueryItem(name: "n", value: "\(index)"),
                        ])
                        let task = Task {
                            do {
                                return Result<Int, CourierError>.success(try await client.value(for: request).count)
                            } catch let error as CourierError {
                                return .failure(error)
                            }
                        }
                        if index.isMultiple(of: 2) { task.cancel() }
                        group.addTask { try await task.value }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(outcomes.count == 40)
                for outcome in outcomes {
                    switch outcome {
                    case .success(let received): #expect(received == count)
                    case .failure(let error): #expect(error.code == .cancelled)
                    }
                }
                // The calls that were not cancelled succeeded.
                #expect(outcomes.filter { if case .success = $0 { true } else { false } }.count >= 20)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aBodyRefusedForItsContentLengthClosesTheConnection(_ kind: TransportKind) async throws {
        try await withStallingServer { server in
            try await withTransport(kind) { transport in
                var context = RequestContext(endpoint: "test")
                context.options.maxResponseBytes = StallingServer.declaredBytes / 2
                let error = await #expect(throws: CourierError.self) {
                    _ = try await transport.send(get(server.url, "/stall"), body: nil, context: context)
                }
                #expect(error?.code == .responseTooLarge)
                // The transfer stops: the client closes the connection rather than waiting,
                // connection open, for a body it refused (the server never sends the rest).
                var closed = server.closedConnections.makeAsyncIterator()
                #expect(await closed.next() != nil)
            }
        }
    }
}
