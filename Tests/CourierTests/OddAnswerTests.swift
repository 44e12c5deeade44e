import Courier
import Foundation
import HTTPTypes
import Testing

/// Answers a well-behaved server would not send, each written byte for byte by a
/// ``RawAnswerServer``: every transport reads the ones HTTP allows as AsyncHTTPClient does,
/// and fails the broken ones with `invalidResponse`, never a bare `transportFailed` or an
/// `invalidRequest` that blames the caller.
@Suite("Odd and broken answers, on every transport", .timeLimit(.minutes(1)))
struct OddAnswerTests {
    private static let answers: [String: [UInt8]] = [
        "/early-hints": Array("HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8),
        "/not-http": Array("NOT HTTP AT ALL\r\n\r\n".utf8),
        "/status-past-999": Array("HTTP/1.1 2000 Weird\r\nContent-Length: 2\r\n\r\nok".utf8),
        "/header-without-colon": Array("HTTP/1.1 200 OK\r\nBad Header x\r\nContent-Length: 2\r\n\r\nok".utf8),
        "/nul-in-header": Array("HTTP/1.1 200 OK\r\nX-Nul: a\0b\r\nContent-Length: 2\r\n\r\nok".utf8),
    ]

    private func send(_ kind: TransportKind, _ path: String) async throws -> Result<(HTTPResponse, Data), CourierError> {
        try await withRawAnswerServer(Self.answers) { server in
            try await withTransport(kind) { transport in
                let request = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(server.url.port!)", path: path)
                do {
                    let (head, body) = try await transport.send(request, body: nil, context: RequestContext(endpoint: "test"))
                    return .success((head, try await body?.collect(upTo: 1 << 20) ?? Data()))
                } catch let error as CourierError {
                    return .failure(error)
                }
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func anEarlyHintsHeadIsPassedOverForTheFinalOne(_ kind: TransportKind) async throws {
        let outcome = try await send(kind, "/early-hints")
        let (head, body) = try outcome.get()
        #expect(head.status == .ok)
        #expect(body == Data("ok".utf8))
    }

    @Test(arguments: TransportKind.allCases, ["/not-http", "/status-past-999", "/header-without-colon", "/nul-in-header"])
    func aBrokenHeadIsAnInvalidResponse(_ kind: TransportKind, path: String) async throws {
        let outcome = try await send(kind, path)
        guard case .failure(let error) = outcome else {
            Issue.record("\(path) was read as a response")
            return
        }
        #expect(error.code == .invalidResponse, "\(path): \(error)")
    }
}
