import AsyncHTTPClient
import Courier
@testable import CourierAsyncHTTPClient
import NIOCore
import NIOHTTP2
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// How AsyncHTTPClient's and NIO's errors map to `CourierError`, and which of them guarantee
/// that the server never processed the request (`neverProcessed`), which decides whether a POST
/// without an idempotency key may go again.
@Suite("AsyncHTTPClient failures: what the server saw")
struct AHCErrorMappingTests {
    private func mapped(_ error: any Error, beforeResponse: Bool = true) throws -> CourierError {
        try #require(AHCErrorMapping.map(error, beforeResponse: beforeResponse) as? CourierError)
    }

    @Test func aRefusedStreamIsNeverProcessedBeforeOrDuringTheAnswer() throws {
        let refused = NIOHTTP2Errors.streamClosed(streamID: HTTP2StreamID(5), errorCode: .refusedStream)
        for beforeResponse in [true, false] {
            let error = try mapped(refused, beforeResponse: beforeResponse)
            #expect(error.code == .connectionLost)
            #expect(error.neverProcessed)
        }
    }

    @Test func aCancelledStreamMayHaveBeenProcessedButSaysWhetherItEndedBeforeTheAnswer() throws {
        // NIOHTTP2 closes a stream above a GOAWAY's last with CANCEL, and a server's own reset
        // of a stream it processed is CANCEL too: never called unprocessed.
        let cancelled = NIOHTTP2Errors.streamClosed(streamID: HTTP2StreamID(7), errorCode: .cancel)
        #expect(try !mapped(cancelled, beforeResponse: true).neverProcessed)
        #expect(try mapped(cancelled, beforeResponse: true).failedBeforeResponse)
        #expect(try !mapped(cancelled, beforeResponse: false).failedBeforeResponse, "reset after part of the answer")
        #expect(try mapped(NIOHTTP2Errors.createdStreamAfterGoaway()).neverProcessed)
    }

    @Test func theEnginesOwnCancellationIsNotTheCallersAndTheCallersStaysCancelled() async throws {
        let engine = try mapped(HTTPClientError.cancelled)
        #expect(engine.code == .connectionLost)
        #expect(!engine.neverProcessed, "the engine gave it up: it may have gone out")
        let task = Task { () -> (any Error)? in
            withUnsafeCurrentTask { $0?.cancel() }
            return AHCErrorMapping.map(HTTPClientError.cancelled, beforeResponse: true)
        }
        let callers = try #require(await task.value as? CourierError)
        #expect(callers.code == .cancelled)
        #expect(!callers.neverProcessed)
    }

    @Test func connectionsNeverMadeAreNeverProcessedAndTimeoutsAfterTheRequestMayBe() throws {
        for error in [HTTPClientError.connectTimeout, .getConnectionFromPoolTimeout, .tlsHandshakeTimeout] {
            #expect(try mapped(error).code == .timedOut)
            #expect(try mapped(error).neverProcessed, "\(error)")
        }
        for error in [HTTPClientError.readTimeout, .deadlineExceeded, .remoteConnectionClosed] {
            #expect(try !mapped(error).neverProcessed, "\(error)")
        }
        #expect(try mapped(IOError(errnoCode: ECONNREFUSED, reason: "connect")).neverProcessed)
        #expect(try mapped(IOError(errnoCode: ECONNREFUSED, reason: "connect")).code == .cannotConnect)
        #expect(try !mapped(IOError(errnoCode: ECONNRESET, reason: "read")).neverProcessed)
        #expect(try mapped(ChannelError.connectTimeout(.seconds(1))).neverProcessed)
        #expect(try !mapped(IOError(errnoCode: EHOSTUNREACH, reason: "read")).neverProcessed, "unreachable can come on a connection that carried the request")
        #expect(try !mapped(ChannelError.ioOnClosedChannel).neverProcessed)
    }
}
