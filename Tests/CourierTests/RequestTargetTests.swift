import Courier
import Foundation
import Testing

@Suite("Building request targets")
struct RequestTargetTests {
    let base = URL(string: "https://api.example.com/v1")!

    @Test func relativePathIsAppendedToTheBaseURLsPath() throws {
        let target = try RequestTarget.make(baseURL: base, path: "/users/42", query: [])
        #expect(target.scheme == "https")
        #expect(target.authority == "api.example.com")
        #expect(target.pathAndQuery == "/v1/users/42")
    }

    @Test func pathWithoutLeadingSlashJoinsTheSameWay() throws {
        let target = try RequestTarget.make(baseURL: URL(string: "https://api.example.com/v1/")!, path: "users", query: [])
        #expect(target.pathAndQuery == "/v1/users")
    }

    @Test func queryWrittenInThePathIsKeptAsWrittenAndItemsAreAppended() throws {
        let target = try RequestTarget.make(
            baseURL: URL(string: "http://127.0.0.1:8080")!,
            path: "/slow?ms=200",
            query: [URLQueryItem(name: "tag", value: "a b&c=d+e")]
        )
        #expect(target.authority == "127.0.0.1:8080")
        #expect(target.pathAndQuery == "/slow?ms=200&tag=a%20b%26c%3Dd%2Be")
    }

    @Test func queryStartsAtTheQuestionMarkEvenWhenACombiningMarkFollowsIt() throws {
        // "?" and U+0301 form one character; the query still starts at the "?" byte.
        let target = try RequestTarget.make(baseURL: base, path: "/caf\u{e9}?q=\u{301}x", query: [])
        #expect(target.pathAndQuery == "/v1/caf%C3%A9?q=%CC%81x")
    }

    @Test func queryItemWithoutValueIsSentAsABareName() throws {
        let target = try RequestTarget.make(baseURL: base, path: "/search", query: [URLQueryItem(name: "flag", value: nil)])
        #expect(target.pathAndQuery == "/v1/search?flag")
    }

    @Test func spacesAndNonASCIIInThePathArePercentEncodedAndEscapesKept() throws {
        let target = try RequestTarget.make(baseURL: base, path: "/files/my file/caf\u{e9}%2Fx", query: [])
        #expect(target.pathAndQuery == "/v1/files/my%20file/caf%C3%A9%2Fx")
    }

    @Test func textThatNeedsNoEscapingIsKeptAsWritten() throws {
        let target = try RequestTarget.make(
            baseURL: base,
            path: "/a-b_c.d~e/!$&'()*+,;=:@",
            query: [URLQueryItem(name: "q", value: "plain-text_1.2~3")]
        )
        #expect(target.pathAndQuery == "/v1/a-b_c.d~e/!$&'()*+,;=:@?q=plain-text_1.2~3")
        #expect(RequestTarget.pathSegment("a/b c") == "a%2Fb%20c")
        #expect(RequestTarget.pathSegment("plain") == "plain")
    }

    @Test func fragmentIsRejectedLoudly() {
        #expect(throws: CourierError.self) {
            try RequestTarget.make(baseURL: base, path: "/page#top", query: [])
        }
        let error = try? #require(throws: CourierError.self) { try RequestTarget.make(baseURL: base, path: "/a#b", query: []) }
        #expect(error?.code == .invalidRequest)
    }

    @Test func malformedPercentEscapeIsRejectedNotReEncoded() throws {
        let error = try #require(throws: CourierError.self) {
            try RequestTarget.make(baseURL: base, path: "/discount/50%off", query: [])
        }
        #expect(error.code == .invalidRequest)
        #expect(throws: CourierError.self) { try RequestTarget.make(baseURL: base, path: "/x?q=100%", query: []) }
    }

    @Test func absoluteURLInThePathReplacesTheBaseURL() throws {
        let target = try RequestTarget.make(baseURL: base, path: "http://other.example:9000/a?b=1", query: [])
        #expect(target.scheme == "http")
        #expect(target.authority == "other.example:9000")
        #expect(target.pathAndQuery == "/a?b=1")
    }

    @Test func nonHTTPSchemesAreRejected() {
        #expect(throws: CourierError.self) {
            try RequestTarget.make(baseURL: URL(string: "ftp://example.com")!, path: "/x", query: [])
        }
    }

    @Test func ipv6HostsAreBracketed() throws {
        let target = try RequestTarget.make(baseURL: URL(string: "http://[::1]:8080")!, path: "/x", query: [])
        #expect(target.authority == "[::1]:8080")
    }

    @Test func pathSegmentEscapesSlashesSoAnIDStaysOneSegment() {
        #expect(RequestTarget.pathSegment("a/b c?d") == "a%2Fb%20c%3Fd")
        #expect(RequestTarget.pathSegment("r_42-x.y~z") == "r_42-x.y~z")
    }
}
