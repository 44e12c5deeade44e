import Courier
@testable import CourierAsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOPosix
import Testing

/// How the AsyncHTTPClient transport knows that a request it gave the engine never reached a
/// server: the engine never read its body (it reads it only once the head is on a connection).
@Suite("A body AsyncHTTPClient never read")
struct UnsentBodyWitnessTests {
    private func lost() -> CourierError {
        CourierError(code: .connectionLost, message: "the connection closed before the response was complete")
    }

    @Test func onlyARequestTheChainCouldNotOtherwiseSendAgainIsWitnessed() {
        let post = HTTPRequest(method: .post, scheme: "https", authority: "example.com", path: "/items")
        var keyed = post
        keyed.headerFields[.idempotencyKey] = "k-1"
        #expect(UnsentBodyWitness.isNeeded(for: post))
        #expect(UnsentBodyWitness.isNeeded(for: HTTPRequest(method: .patch, scheme: "https", authority: "example.com", path: "/items/1")))
        #expect(!UnsentBodyWitness.isNeeded(for: keyed))
        #expect(!UnsentBodyWitness.isNeeded(for: HTTPRequest(method: .put, scheme: "https", authority: "example.com", path: "/items/1")))
        #expect(!UnsentBodyWitness.isNeeded(for: HTTPRequest(method: .get, scheme: "https", authority: "example.com", path: "/items")))
    }

    @Test func aFailureBeforeTheBodyWasReadIsNeverProcessedAndOneAfterItIsNot() async throws {
        let witness = UnsentBodyWitness()
        let unread = try #require(witness.markingUnsent(lost()) as? CourierError)
        #expect(unread.neverProcessed)
        #expect(unread.failedBeforeResponse)

        // The engine reads the one chunk: from then on the server may have seen the request.
        var chunks = witness.body(ByteBuffer(string: "{}")).makeAsyncIterator()
        #expect(try await chunks.next() == ByteBuffer(string: "{}"))
        #expect(try await chunks.next() == nil)
        let read = try #require(witness.markingUnsent(lost()) as? CourierError)
        #expect(!read.neverProcessed)
    }

    @Test func theCallersCancellationStaysACancellation() throws {
        let cancelled = CourierError(code: .cancelled, message: "the request was cancelled")
        let marked = try #require(UnsentBodyWitness().markingUnsent(cancelled) as? CourierError)
        #expect(marked.code == .cancelled)
        #expect(!marked.neverProcessed)
    }

    @Test func aPostWithoutAKeyGoesToTheEngineThroughTheWitnessAndOthersAsTheirBuffer() throws {
        let loops = LoopExecutors(group: MultiThreadedEventLoopGroup.singleton)
        let body = HTTPBody(Data("{\"topic\":\"x\"}".utf8))
        var witness: UnsentBodyWitness?
        let post = HTTPRequest(method: .post, scheme: "https", authority: "example.com", path: "/items")
        _ = try AsyncHTTPClientTransport.makeClientRequest(post, body: body, loops: loops, witness: &witness)
        #expect(witness != nil)

        witness = nil
        var keyed = post
        keyed.headerFields[.idempotencyKey] = "k-1"
        _ = try AsyncHTTPClientTransport.makeClientRequest(keyed, body: body, loops: loops, witness: &witness)
        #expect(witness == nil)
    }
}
