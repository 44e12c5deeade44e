import Courier
@testable import CourierAsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import Testing

/// How the AsyncHTTPClient transport turns an engine's response head into an `HTTPResponse`
/// and the body's length, and its bytes into `Data`: pure conversions, tested without I/O.
@Suite("AsyncHTTPClient transport: response conversions")
struct ResponseHeadTests {
    private func convert(
        _ headers: [(String, String)],
        status: Int = 200,
        method: HTTPRequest.Method = .get
    ) throws -> (HTTPResponse, HTTPBody.Length?) {
        try ResponseHead.make(headers: HTTPHeaders(headers), status: status, reasonPhrase: "Reason", method: method)
    }

    @Test func fieldsKeepTheirOrderSpellingAndRepeatedValues() throws {
        let (head, _) = try convert([
            ("Content-Type", "application/json"),
            ("set-cookie", "a=1"),
            ("X-Custom", "one"),
            ("Set-Cookie", "b=2"),
            ("DATE", "Tue, 24 Nov 2026 00:30:08 GMT"),
        ])
        #expect(head.headerFields.map(\.name.rawName) == ["Content-Type", "set-cookie", "X-Custom", "Set-Cookie", "DATE"])
        #expect(head.headerFields.map(\.name.canonicalName) == ["content-type", "set-cookie", "x-custom", "set-cookie", "date"])
        #expect(head.headerFields[values: .setCookie] == ["a=1", "b=2"])
        #expect(head.headerFields[.contentType] == "application/json")
        #expect(head.headerFields[HTTPField.Name("x-custom")!] == "one")
        #expect(head.status.code == 200)
        #expect(head.status.reasonPhrase == "Reason")
    }

    @Test func aKnownNameConvertsAsValidatingItWould() throws {
        for (spelling, _) in ResponseFieldName.known {
            let (head, _) = try convert([(spelling, "x")])
            let field = try #require(head.headerFields.first)
            let validated = try #require(HTTPField.Name(spelling))
            #expect(field.name.rawName == validated.rawName)
            #expect(field.name.canonicalName == validated.canonicalName)
        }
    }

    @Test func oneContentLengthGivesAKnownLength() throws {
        let (_, length) = try convert([("Content-Length", "11")])
        #expect(length == .known(11))
        let (_, lowercased) = try convert([("content-length", "0")])
        #expect(lowercased == .known(0))
    }

    @Test func aMissingMalformedOrRepeatedContentLengthLeavesTheLengthUnknown() throws {
        #expect(try convert([]).1 == .unknown)
        #expect(try convert([("Content-Length", "eleven")]).1 == .unknown)
        #expect(try convert([("Content-Length", "-")]).1 == .unknown)
        #expect(try convert([("Content-Length", "11"), ("Content-Length", "11")]).1 == .unknown)
        #expect(try convert([("Content-Length", "11"), ("content-length", "12")]).1 == .unknown)
    }

    @Test func responsesThatCannotHaveABodyHaveNone() throws {
        #expect(try convert([("Content-Length", "11")], method: .head).1 == nil)
        #expect(try convert([("Content-Length", "11")], status: 204).1 == nil)
        #expect(try convert([("Content-Length", "11")], status: 304).1 == nil)
    }

    @Test func aFieldNameThatIsNotATokenIsAnInvalidResponse() throws {
        let error = #expect(throws: CourierError.self) {
            try convert([("Content-Type", "text/plain"), ("Bad Name", "x")])
        }
        #expect(error?.code == .invalidResponse)
    }

    @Test func bodyBytesAreCopiedFromTheReaderIndexOn() {
        var buffer = ByteBuffer(string: "skip-body")
        buffer.moveReaderIndex(forwardBy: 5)
        #expect(AsyncHTTPClientTransport.data(buffer) == Data("body".utf8))
        #expect(AsyncHTTPClientTransport.data(ByteBuffer()).isEmpty)
    }
}
