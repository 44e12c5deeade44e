import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// The error bodies real services send, each read into `CourierError.serverMessage` and
/// `serverCode`, whatever its shape.
@Suite("Server error bodies")
struct ServerErrorBodyTests {
    @Test(arguments: [
        // FastAPI's plain detail, and its validation list.
        (#"{"detail": "Not authenticated"}"#, "Not authenticated", nil),
        (#"{"detail": [{"loc": ["body", "email"], "msg": "field required", "type": "missing"}]}"#, "body.email: field required", nil),
        // An RFC 9457 problem nested in FastAPI's detail, as CLARITY's auth routes answer.
        (#"{"detail": {"type": "invalid_credentials", "title": "Invalid credentials", "detail": "Email or password is wrong", "status": 401, "instance": "/api/v1/auth/login"}}"#,
         "Email or password is wrong", "invalid_credentials"),
        // CLARITY's ErrorResponse.
        (#"{"error": "Invalid credentials", "code": "AUTH_001", "details": {"attempts": 3}}"#, "Invalid credentials", "AUTH_001"),
        // RFC 9457 application/problem+json at the top level; a URI type gives its last segment.
        (#"{"type": "https://example.com/probs/out-of-credit", "title": "You do not have enough credit.", "status": 403, "detail": "Your balance is 30, but that costs 50."}"#,
         "Your balance is 30, but that costs 50.", "out-of-credit"),
        (#"{"type": "about:blank", "title": "Forbidden", "status": 403}"#, "Forbidden", nil),
        // OAuth's token endpoint errors (RFC 6749).
        (#"{"error": "invalid_grant", "error_description": "the refresh token was already used"}"#, "the refresh token was already used", "invalid_grant"),
        // Seed 004's shape.
        (#"{"error": "validation_failed", "message": "limit must be 1…100"}"#, "limit must be 1…100", "validation_failed"),
    ] as [(String, String, String?)])
    func eachShapeReachesTheServerMessageAndCode(body: String, message: String, code: String?) async throws {
        let transport = MockTransport { _, _ in
            MockResponse(status: .unprocessableContent, headers: [.contentType: "application/problem+json"], body: Data(body.utf8))
        }
        let client = APIClient(baseURL: try #require(URL(string: "https://api.test")), transport: transport)
        let error = await courierError { _ = try await client.value(for: Request<Data>(path: "/thing")) }
        #expect(error?.status?.code == 422)
        #expect(error?.serverMessage == message)
        #expect(error?.serverCode == code)
    }
}
