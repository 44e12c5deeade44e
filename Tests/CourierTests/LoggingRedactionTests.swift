import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Logging
import Testing

@Suite("Logging never shows secrets")
struct LoggingRedactionTests {
    let secret = "s3cr3t-t0ken-value"

    private func loggedClient(level: Logger.Level, transport: MockTransport) -> (APIClient, LogRecorder) {
        let recorder = LogRecorder()
        let logger = Logger(label: "test") { _ in RecordingLogHandler(recorder: recorder, level: level) }
        var configuration = ClientConfiguration(baseURL: URL(string: "https://api.example.test")!)
        configuration.middleware.append(BearerTokenMiddleware(token: secret))
        configuration.networkMiddleware = [LoggingMiddleware(logger: logger)]
        return (APIClient(configuration: configuration, transport: transport), recorder)
    }

    @Test func debugLogsShowHeadersAndCurlButNoTokenCookieOrSecretQueryItem() async throws {
        let transport = MockTransport(always: MockResponse(
            status: .ok,
            headers: [.setCookie: "session=\(secret)", .contentType: "application/json"],
            body: Data(#"{"ok":true}"#.utf8)
        ))
        let (client, recorder) = loggedClient(level: .debug, transport: transport)
        let request = Request<Data>(
            path: "/items",
            query: [URLQueryItem(name: "access_token", value: secret), URLQueryItem(name: "page", value: "2")],
            headers: [.cookie: "sid=\(secret)"]
        )
        _ = try await client.send(request)

        // The secret really was sent: the transport saw it, so its absence from the log means redaction.
        let sent = try #require(transport.requests.first).request
        #expect(sent.headerFields[.authorization] == "Bearer \(secret)")
        #expect(sent.path?.contains(secret) == true)

        let log = recorder.text
        #expect(log.contains("GET https://api.example.test/items?access_token=[REDACTED]&page=2 → 200"))
        #expect(log.contains("Authorization: [REDACTED]"))
        #expect(log.contains("Cookie: [REDACTED]"))
        #expect(log.contains("Set-Cookie: [REDACTED]"))
        #expect(log.contains("curl "))
        #expect(!log.contains(secret))
    }

    @Test func infoLevelLogsOneSummaryLineWithoutHeaders() async throws {
        let (client, recorder) = loggedClient(level: .info, transport: MockTransport(always: .status(.noContent)))
        try await client.send(Request<Void>(method: .delete, path: "/items/1"))
        #expect(recorder.all.count == 1)
        #expect(recorder.all.first?.message.hasPrefix("DELETE https://api.example.test/items/1 → 204 in ") == true)
    }

    @Test func failuresAreLoggedWithTheirCode() async throws {
        let transport = MockTransport { _, _ in throw CourierError(code: .cannotConnect, message: "refused") }
        let (client, recorder) = loggedClient(level: .info, transport: transport)
        _ = await courierError { _ = try await client.send(Request<Data>(path: "/x?token=\(secret)")) }
        #expect(recorder.all.first?.level == .warning)
        #expect(recorder.text.contains("failed after"))
        #expect(recorder.text.contains("cannotConnect"))
        #expect(!recorder.text.contains(secret))
    }

    @Test func curlRenderingRedactsHeadersAndQuery() {
        let request = HTTPRequest(
            method: .post, scheme: "https", authority: "user:pw@api.test", path: "/login?password=hunter2&next=/home",
            headerFields: [.authorization: "Basic dXNlcjpwdw==", .init("X-Api-Key")!: "k-123", .contentType: "application/json"]
        )
        let curl = CURLRendering.render(request, body: HTTPBody(#"{"a":1}"#))
        #expect(curl == """
        curl -X POST -H 'Authorization: [REDACTED]' -H 'X-Api-Key: [REDACTED]' -H 'Content-Type: application/json' \
        --data-binary '<7 bytes not logged>' 'https://[REDACTED]@api.test/login?password=[REDACTED]&next=/home'
        """)
        let allowed = CURLRendering.render(request, body: HTTPBody(#"{"a":1,"b":{"a":2,"c":3}}"#), bodies: .allowing(keys: ["a"]))
        #expect(allowed.contains(#"--data-binary '{"a":1,"b":{"a":2,"c":"[REDACTED]"}}'"#), "only allowed keys' values show")
    }

    @Test func anAllowListNeverShowsSecretsOrPersonalBodies() async throws {
        let body = Data(#"{"email":"a@b.c","password":"hunter2","steps":[1,2]}"#.utf8)
        #expect(Redaction.allowListedBody(body, contentType: "application/json", keys: ["email", "password"]) == #"{"email":"a@b.c","password":"[REDACTED]","steps":["[REDACTED]","[REDACTED]"]}"#)
        let transport = MockTransport(always: .status(.noContent))
        var configuration = ClientConfiguration(baseURL: URL(string: "https://api.example.test")!, retryPolicy: .none)
        let recorder = LogRecorder()
        let logger = Logger(label: "test") { _ in RecordingLogHandler(recorder: recorder, level: .debug) }
        configuration.networkMiddleware = [LoggingMiddleware(logger: logger, bodies: .allowing(keys: ["heartRate"]))]
        let client = APIClient(configuration: configuration, transport: transport)
        var upload = Request<Void>(method: .post, path: "/health", body: .json(["heartRate": 61]))
        upload.options.bodyIsPersonalData = true
        try await client.send(upload)
        #expect(recorder.text.contains("bytes not logged"))
        // Neither the allowed key nor its value: the body is personal. (Not a bare "61", which
        // a random request id can hold.)
        #expect(!recorder.text.contains("heartRate"))
        #expect(!recorder.text.contains(":61"))
    }

    @Test func passwordsAndTokensInBodiesAreRedacted() {
        let login = Data(#"{"email":"a@b.c","password":"hunter2","nested":{"refreshToken":"r-1"},"items":[{"api_key":"k"}]}"#.utf8)
        let json = Redaction.redactedBody(login, contentType: "application/json")
        #expect(json == #"{"email":"a@b.c","items":[{"api_key":"[REDACTED]"}],"nested":{"refreshToken":"[REDACTED]"},"password":"[REDACTED]"}"#)
        let form = Redaction.redactedBody(Data("user=a&password=hunter2&client_secret=s".utf8), contentType: "application/x-www-form-urlencoded")
        #expect(form == "user=a&password=[REDACTED]&client_secret=[REDACTED]")
        #expect(Redaction.redactedBody(Data("hunter2".utf8), contentType: "text/plain") == "<7 bytes of text/plain>")
    }

    @Test func debugLogsOfASignInNeverShowThePassword() async throws {
        let (client, recorder) = loggedClient(level: .debug, transport: MockTransport(always: .status(.noContent)))
        try await client.send(Request<Void>(method: .post, path: "/login", body: .json(["email": "a@b.c", "password": secret])))
        #expect(recorder.text.contains("bytes not logged"), "no body is logged by default, at any level")
        #expect(!recorder.text.contains(secret))
        #expect(!recorder.text.contains("a@b.c"))
    }

    @Test func errorsCarryARedactedURL() async throws {
        let transport = MockTransport(always: .status(.notFound))
        let client = APIClient(baseURL: URL(string: "https://api.example.test")!, transport: transport)
        let error = await courierError { _ = try await client.send(Request<Data>(path: "/x?api_key=\(secret)")) }
        #expect(error?.url == "https://api.example.test/x?api_key=[REDACTED]")
        #expect(error?.description.contains(secret) == false)
    }
}
