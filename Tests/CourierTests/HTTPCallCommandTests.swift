@testable import CourierCLI
import Courier
import Foundation
import HTTPTypes
import ReferenceServer
import Synchronization
import Testing

/// What one `courier get` run wrote.
private final class Captured: Sendable {
    private let state = Mutex<(body: Data, lines: [String])>((Data(), []))
    var body: Data { state.withLock { $0.body } }
    var lines: [String] { state.withLock { $0.lines } }

    func output(terminal: Bool = false) -> HTTPCall.Output {
        HTTPCall.Output(
            body: { data in self.state.withLock { $0.body.append(data) } },
            diagnostic: { line in self.state.withLock { $0.lines.append(line) } },
            bodyIsTerminal: terminal
        )
    }
}

@Suite("courier get and friends: a curl through the chain", .timeLimit(.minutes(2)))
struct HTTPCallCommandTests {
    private func run(
        _ arguments: [String], method: HTTPRequest.Method = .get, terminal: Bool = false,
        credentials: URL = FileManager.default.temporaryDirectory.appendingPathComponent("courier-no-credentials")
    ) async throws -> (Int32, Captured) {
        let captured = Captured()
        let status = await HTTPCall.run(
            method: method, options: try HTTPCallOptions.parse(arguments), output: captured.output(terminal: terminal), credentials: credentials
        )
        return (status, captured)
    }

    @Test(arguments: [
        ("http://[::1]:8080/api/radars?x=1", "http://[::1]:8080"),
        ("https://user:pw@Example.com:8443/a#f", "https://Example.com:8443"),
        ("HTTP://127.0.0.1:5/", "http://127.0.0.1:5"),
    ])
    func theOriginOfAURLKeepsItsHostAsSpelledAndNothingAfterIt(url: String, origin: String) throws {
        let plan = try HTTPCallPlan(method: .get, options: try HTTPCallOptions.parse([url]))
        #expect(plan.origin.absoluteString == origin)
    }

    @Test func theTokenLoginStoredForAnOriginGoesToThatOriginOnly() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-get-credentials-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withRunningServer { server, url in
            let token = try await server.issueTokens(email: ReferenceServerConfiguration().demoEmail).accessToken
            try await FileCredentialStore(url: folder.appendingPathComponent(ServerOptions.fileName(for: url))).save(Credential(accessToken: token))
            let (status, captured) = try await run([url.absoluteString + "/api/radars"], credentials: folder)
            #expect(status == 0, "\(captured.lines)")
            // The same server under another origin (localhost, not 127.0.0.1) has no stored token.
            let other = url.absoluteString.replacingOccurrences(of: "127.0.0.1", with: "localhost") + "/api/radars"
            let (refused, elsewhere) = try await run([other], credentials: folder)
            #expect(refused == 1)
            #expect(elsewhere.lines.first?.hasPrefix("courier: unauthorized") == true, "\(elsewhere.lines)")
        }
    }

    @Test(arguments: HTTPCallTransport.allCases)
    func aGetWritesTheDecodedBodyAndSaysWhatTheChainDid(transport: HTTPCallTransport) async throws {
        try await withReferenceServer { url in
            let target = url.absoluteString + "/debug/encoded?count=5000&coding=gzip"
            let (status, captured) = try await run(["-v", "--transport", transport.rawValue, target])
            #expect(status == 0)
            #expect(captured.body.count == 5_000, "the body as the server meant it, decoded")
            #expect(captured.lines.contains { $0.hasPrefix("> GET ") && $0.hasSuffix("(attempt 1)") })
            #expect(captured.lines.contains("> Accept-Encoding: gzip, deflate"))
            #expect(captured.lines.contains { $0.hasPrefix(transport == .ahc ? "< HTTP/1.1 200 " : "< 200 ") && $0.hasSuffix(" ms") })
            #expect(captured.lines.contains { $0.hasPrefix("* 200 from the network after 1 attempt(s)") }, "\(captured.lines)")
        }
    }

    @Test func verboseNamesEachRetryWithItsWaitAndWhatSetIt() async throws {
        try await withRunningServer { server, url in
            server.faults.inject(.rateLimited(retryAfter: "0"), count: 1, method: "GET", path: "/debug/encoded")
            server.faults.inject(.status(503), count: 1, method: "GET", path: "/debug/encoded")
            let (status, captured) = try await run(["-v", url.absoluteString + "/debug/encoded?count=100"])
            #expect(status == 0, "\(captured.lines)")
            let retries = captured.lines.filter { $0.hasPrefix("* retrying after ") }
            #expect(retries.count == 2, "\(captured.lines)")
            #expect(retries.first?.contains("429") == true && retries.first?.contains("Retry-After: 0") == true, "\(retries)")
            #expect(retries.last?.contains("503") == true && retries.last?.hasSuffix("(backoff)") == true, "\(retries)")
            #expect(captured.lines.contains { $0.hasSuffix("(attempt 3)") })
            #expect(captured.lines.contains { $0.hasPrefix("* 200 from the network after 3 attempt(s)") })
        }
    }

    @Test func aDiskCacheAnswersTheSecondRunAndVerboseSaysSo() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-get-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withReferenceServer { url in
            let target = url.absoluteString + "/debug/encoded?count=800&maxAge=60"
            let (first, one) = try await run(["-v", "--cache", folder.path, target])
            let (second, two) = try await run(["-v", "--cache", folder.path, target])
            #expect(first == 0 && second == 0)
            #expect(one.lines.contains { $0.hasPrefix("* 200 from the network") })
            #expect(two.lines.contains { $0.hasPrefix("* 200 from the cache (fresh) after 0 attempt(s)") }, "\(two.lines)")
            #expect(!two.lines.contains { $0.hasPrefix("> GET") }, "nothing went out")
            #expect(two.body == one.body)
        }
    }

    @Test func aFailureExitsNonZeroWithTheTypedError() async throws {
        try await withReferenceServer { url in
            let (status, captured) = try await run([url.absoluteString + "/api/radars"])
            #expect(status == 1)
            #expect(captured.lines.first?.hasPrefix("courier: unauthorized: ") == true, "\(captured.lines)")
            #expect(captured.body.isEmpty)
        }
        let (refused, captured) = try await run(["--timeout", "2", "http://127.0.0.1:1/nothing"])
        #expect(refused == 1)
        #expect(captured.lines.first?.hasPrefix("courier: cannotConnect: ") == true, "\(captured.lines)")
        let (bad, usage) = try await run(["ftp://example.test/file"])
        #expect(bad == 2)
        #expect(usage.lines.first?.contains("not an http(s) URL") == true)
    }

    @Test func aPostSendsJSONOrAFileAndHeadersAndABearerOnlyToItsOrigin() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-post-\(UUID().uuidString).bin")
        try Data([0, 1, 2, 3, 255]).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await withReferenceServer { url in
            let echo = url.absoluteString + "/debug/echo"
            let (status, json) = try await run(["-v", "--json", #"{"a":1}"#, "-H", "X-Custom: yes", "--bearer", "secret-token", echo], method: .post)
            #expect(status == 0)
            #expect(json.body == Data(#"{"a":1}"#.utf8))
            #expect(json.lines.contains("> Content-Type: application/json"))
            #expect(json.lines.contains("> X-Custom: yes"))
            #expect(!json.lines.joined().contains("secret-token"), "the token is redacted in -v")
            let (_, bytes) = try await run(["-d", "@\(file.path)", echo], method: .put)
            #expect(bytes.body == Data([0, 1, 2, 3, 255]))
        }
    }

    @Test func jsonIsPrettyOnATerminalAndRawWhenPipedOrWrittenToAFile() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-out-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try await withReferenceServer { url in
            let target = url.absoluteString + "/debug/encoded?count=200"
            let (_, piped) = try await run([target])
            let (_, terminal) = try await run([target], terminal: true)
            #expect(!String(decoding: piped.body, as: UTF8.self).contains("\n"))
            #expect(String(decoding: terminal.body, as: UTF8.self).contains("\n  "), "indented")
            let (status, written) = try await run(["-o", file.path, target])
            #expect(status == 0 && written.body.isEmpty)
            #expect(try Data(contentsOf: file) == piped.body)
        }
    }
}

@Suite("courier get -v and --trace: the chain's decisions, as they happen", .timeLimit(.minutes(2)))
struct HTTPCallVerboseTests {
    private func run(_ arguments: [String]) async throws -> (Int32, Captured) {
        let captured = Captured()
        let status = await HTTPCall.run(
            method: .get, options: try HTTPCallOptions.parse(arguments), output: captured.output(),
            credentials: FileManager.default.temporaryDirectory.appendingPathComponent("courier-no-credentials")
        )
        return (status, captured)
    }

    @Test func aRedirectToAnotherOriginSaysWhichCredentialFieldsWereLeftBehind() async throws {
        try await withReferenceServer { other in
            try await withReferenceServer { url in
                // 127.0.0.1 and localhost are two origins: the bearer must not follow.
                let elsewhere = "http://localhost:\(other.port ?? 0)/debug/encoded?count=10"
                let target = url.absoluteString + "/debug/redirect?status=302&to=" + elsewhere.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                let (status, captured) = try await run(["-v", "--bearer", "s3cret-token", target])
                #expect(status == 0, "\(captured.lines)")
                let redirect = captured.lines.first { $0.hasPrefix("* following 302 to http://localhost:") }
                #expect(redirect?.hasSuffix("(another origin: removed Authorization)") == true, "\(captured.lines)")
                let sent = captured.lines.filter { $0.hasPrefix("> authorization:") || $0.hasPrefix("> Authorization:") }
                #expect(sent.count == 1, "only the first hop carried it: \(captured.lines)")
                #expect(!captured.lines.joined().contains("s3cret-token"))
            }
        }
    }

    @Test func traceprintsTheCallSpanWithItsAttemptsAndEvents() async throws {
        try await withRunningServer { server, url in
            server.faults.inject(.status(503), count: 1, method: "GET", path: "/debug/encoded")
            let (status, captured) = try await run(["--trace", url.absoluteString + "/debug/encoded?count=100"])
            #expect(status == 0, "\(captured.lines)")
            let lines = captured.lines
            let start = try #require(lines.firstIndex(of: "* spans:"))
            let tree = Array(lines[(start + 1)...])
            #expect(tree.first?.hasPrefix("GET [internal]") == true, "\(tree)")
            #expect(tree.filter { $0.hasPrefix("  GET [client]") }.count == 2, "\(tree)")
            #expect(tree.contains { $0.contains("! +") && $0.contains("retry") && $0.contains("courier.retry.after=503") }, "\(tree)")
            #expect(tree.contains { $0.contains("· http.response.status_code=503") })
            #expect(tree.contains { $0.contains("· http.request.resend_count=1") })
        }
    }
}
