@testable import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@Suite("Typed errors from statuses and bodies")
struct ErrorMappingTests {
    let base = URL(string: "https://api.example.test")!

    private func error(for response: MockResponse) async -> CourierError? {
        let client = APIClient(baseURL: base, transport: MockTransport(always: response))
        return await courierError { _ = try await client.send(Request<Data>(path: "/x")) }
    }

    @Test(arguments: [
        (401, CourierError.Code.unauthorized), (403, .forbidden), (404, .notFound), (429, .rateLimited),
        (400, .clientError), (422, .clientError), (500, .serverError), (503, .serverError),
    ])
    func statusMapsToItsCode(status: Int, code: CourierError.Code) async {
        let error = await error(for: .status(.init(code: status)))
        #expect(error?.code == code)
        #expect(error?.status?.code == status)
    }

    @Test func theMessageNamesTheStatusWithItsReasonPhraseWhenThereIsOne() async {
        // URLSession gives no reason phrase; AsyncHTTPClient gives the server's.
        let bare = await error(for: .status(.init(code: 401)))
        #expect(bare?.message == "the server answered 401")
        let phrased = await error(for: .status(.unauthorized))
        #expect(phrased?.message == "the server answered 401 Unauthorized")
    }

    @Test func serverMessageAndCodeAreReadFromTheJSONErrorBody() async {
        let error = await error(for: .json(#"{"message":"name must not be empty","code":"validation_failed"}"#, status: .unprocessableContent))
        #expect(error?.serverMessage == "name must not be empty")
        #expect(error?.serverCode == "validation_failed")
        #expect(error?.bodySnippet?.contains("validation_failed") == true)
        #expect(error?.method == .get)
        #expect(error?.url == "https://api.example.test/x")
    }

    @Test func rateLimitCarriesRetryAfter() async {
        let response = MockResponse(status: .tooManyRequests, headers: [.retryAfter: "7"])
        let error = await error(for: response)
        #expect(error?.code == .rateLimited)
        #expect(error?.retryAfter == .seconds(7))
        #expect(error?.isRetryable == true)
        #expect(error?.userFacing.action == .retry)
    }

    @Test func retryabilityFollowsTheCode() {
        func make(_ code: CourierError.Code, status: Int? = nil) -> CourierError {
            var error = CourierError(code: code, message: "")
            error.status = status.map { HTTPResponse.Status(code: $0) }
            return error
        }
        #expect(make(.timedOut).isRetryable)
        #expect(make(.connectionLost).isRetryable)
        #expect(make(.serverError, status: 503).isRetryable)
        #expect(!make(.serverError, status: 501).isRetryable)
        #expect(make(.clientError, status: 408).isRetryable)
        #expect(!make(.clientError, status: 422).isRetryable)
        #expect(!make(.cancelled).isRetryable)
        #expect(!make(.decodingFailed).isRetryable)
        #expect(make(.unauthorized).userFacing.action == .signIn)
    }

    @Test func decodingFailureNamesTheCodingPath() async {
        struct Item: Decodable { var id: Int; var name: String }
        struct Page: Decodable { var items: [Item] }
        let transport = MockTransport(always: .json(#"{"items":[{"id":1,"name":"a"},{"id":"two","name":"b"}]}"#))
        let client = APIClient(baseURL: base, transport: transport)
        let error = await courierError { _ = try await client.send(Request<Page>(path: "/x")) }
        #expect(error?.code == .decodingFailed)
        #expect(error?.codingPath == "items[1].id")
        #expect(error?.bodySnippet?.hasPrefix(#"{"items""#) == true)
    }

    @Test func emptyBodyForAVoidRequestIsFineButNotForAValue() async throws {
        struct Thing: Decodable { var id: Int }
        let client = APIClient(baseURL: base, transport: MockTransport(always: .status(.noContent)))
        try await client.send(Request<Void>(method: .delete, path: "/x"))
        let error = await courierError { _ = try await client.send(Request<Thing>(path: "/x")) }
        #expect(error?.code == .decodingFailed)
    }

    @Test func bodyPastTheLimitIsATypedError() async {
        let big = MockResponse(status: .ok, body: Data(repeating: 1, count: 2_000))
        var request = Request<Data>(path: "/x")
        request.options.maxResponseBytes = 1_000
        let client = APIClient(baseURL: base, transport: MockTransport(always: big))
        let error = await courierError { _ = try await client.send(request) }
        #expect(error?.code == .responseTooLarge)
    }

    @Test func unencodableBodyIsAnInvalidRequest() async {
        struct Bad: Encodable, Sendable { var value = Double.nan }
        let client = APIClient(baseURL: base, transport: MockTransport(always: .status(.ok)))
        let error = await courierError { _ = try await client.send(Request<Data>(method: .post, path: "/x", body: .json(Bad()))) }
        #expect(error?.code == .invalidRequest)
        #expect(error?.underlying is EncodingError)
    }
}

@Suite("Error snippets and credentials never show secrets")
struct SecretFreeErrorTests {
    @Test func anErrorSnippetRedactsTokenLikeFieldsAtAnyDepth() {
        let body = Data(#"{"error":"bad","code":"invalid_grant","session":{"refresh_token":"r-secret"},"items":[{"apiKey":"k-secret"}],"accessToken":"a-secret"}"#.utf8)
        let snippet = ErrorMapping.snippet(body, contentType: "application/json") ?? ""
        #expect(!snippet.contains("secret"))
        #expect(snippet.contains("invalid_grant"), "an error's code is not a secret")
        let truncated = Data(#"{"message":"no","access_token": "a-secret\"x", "refresh_token":"r-sec"#.utf8)
        let scrubbed = ErrorMapping.snippet(truncated, contentType: "application/json") ?? ""
        #expect(!scrubbed.contains("a-secret"), "a body that does not parse is scrubbed as text")
        #expect(!scrubbed.contains("r-sec"))
        #expect(scrubbed.contains(#""message":"no""#))
        let form = ErrorMapping.snippet(Data("error=x&access_token=a-secret".utf8), contentType: "application/x-www-form-urlencoded") ?? ""
        #expect(!form.contains("a-secret"))
    }

    @Test func aCredentialNeverPrintsItsTokens() {
        let credential = Credential(accessToken: "a-secret", refreshToken: "r-secret", accountID: "u_1")
        var dumped = ""
        dump(credential, to: &dumped)
        for text in ["\(credential)", String(reflecting: credential), dumped, "\([credential])"] {
            #expect(!text.contains("secret"), "\(text)")
        }
        #expect("\(credential)".contains("u_1"))
    }
}
