import ClarityAPI
import ClarityCore
import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// CLARITY's wire contract: seed 002's endpoint checklist (paths, methods, one DTO per request
/// and response, a base URL ending in `/api/v1`) and seed 004's error body. The fixtures
/// (`Fixtures/Clarity`) are written by hand, never produced by our encoder. Seed 002 names the
/// DTOs without listing their fields, so the fixtures pin the fields CLARITY's models define.
@Suite("CLARITY wire contract (seeds 002 and 004)")
struct ClarityContractTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/Clarity")

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: fixtures.appendingPathComponent(name))
    }

    let decoder = JSONCoding.makeDecoder()

    @Test func everyResponseDTOOfTheChecklistDecodesItsFixture() throws {
        let tokens = try decoder.decode(LoginResponseDTO.self, from: Self.fixture("token-response.json"))
        #expect(tokens.tokenType == "Bearer")
        #expect(tokens.expiresIn == 900)
        #expect(tokens.user.displayName == "Ada")
        let user = try decoder.decode(UserSessionResponseDTO.self, from: Self.fixture("user.json"))
        #expect(user.emailVerified)
        #expect(user.createdAt == Date(timeIntervalSince1970: 1_736_496_000.25), "fractional seconds are kept")
        #expect(try decoder.decode(MessageResponseDTO.self, from: Self.fixture("message.json")).message == "Email verified")

        let page = try decoder.decode(PaginatedMetricsResponseDTO.self, from: Self.fixture("health-data-page.json"))
        #expect(page.data.map(\.type) == [.heartRate, .sleepDuration])
        #expect(page.data[1].source == nil, "source may be null")
        #expect(page.meta.totalCount == 5)
        #expect(page.meta.hasNextPage)
        let processing = try decoder.decode(ProcessingStatusDTO.self, from: Self.fixture("health-data-processing.json"))
        #expect(processing.status == .completed)
        #expect(processing.processedMetrics == 2)

        let receipt = try decoder.decode(HealthKitUploadResponseDTO.self, from: Self.fixture("healthkit-upload-response.json"))
        #expect(receipt.status == .queued)
        #expect(receipt.samplesReceived == ["quantitySamples": 1, "categorySamples": 1])
        let status = try decoder.decode(HealthKitUploadStatusDTO.self, from: Self.fixture("healthkit-upload-status.json"))
        #expect(status.progress == 0.5)

        let analysis = try decoder.decode(AnalysisResponseDTO.self, from: Self.fixture("analysis-completed.json"))
        #expect(analysis.kind == .stepData)
        #expect(analysis.analysis?.sampleCount == 10_080)
        #expect(analysis.message == nil)
        let pending = try decoder.decode(PATAnalysisResponseDTO.self, from: Self.fixture("analysis-processing.json"))
        #expect(pending.status == .processing)
        #expect(pending.analysis == nil, "results are absent while processing")
        let health = try decoder.decode(PATServiceHealthDTO.self, from: Self.fixture("service-status.json"))
        #expect(health.status == .healthy)
        #expect(health.details["analyses_completed"] == "12")

        let insight = try decoder.decode(InsightGenerationResponseDTO.self, from: Self.fixture("insight.json"))
        #expect(insight.insightType == .sleep)
        #expect(insight.sourceAnalysisId == "pat_1")
        let history = try decoder.decode(InsightHistoryResponseDTO.self, from: Self.fixture("insight-history.json"))
        #expect(history.insights.map(\.insightId) == ["ins_2", "ins_1"])
        #expect(history.insights[0].sourceAnalysisId == nil)
        #expect(history.hasMore == false)
    }

    @Test func everyRequestDTOEncodesExactlyTheFixturesKeys() throws {
        let encoder = JSONCoding.makeEncoder()
        func roundTrip<T: Codable>(_ type: T.Type, _ name: String) throws {
            let fixture = try Self.fixture(name)
            let decoded = try decoder.decode(T.self, from: fixture)
            #expect(try RadarContractTests.keys(of: encoder.encode(decoded)) == RadarContractTests.keys(of: fixture), "\(name)")
        }
        try roundTrip(UserRegistrationRequestDTO.self, "register-request.json")
        try roundTrip(UserLoginRequestDTO.self, "login-request.json")
        try roundTrip(RefreshTokenRequestDTO.self, "refresh-request.json")
        try roundTrip(VerifyEmailRequest.self, "verify-email-request.json")
        try roundTrip(HealthDataUploadDTO.self, "health-data-upload.json")
        try roundTrip(HealthKitUploadRequestDTO.self, "healthkit-upload-request.json")
        try roundTrip(StepDataRequestDTO.self, "step-analysis-request.json")
        try roundTrip(InsightGenerationRequestDTO.self, "insight-request.json")
        let upload = try decoder.decode(HealthDataUploadDTO.self, from: Self.fixture("health-data-upload.json"))
        #expect(upload.metrics[1].source == nil)
        #expect(try decoder.decode(VerifyEmailRequest.self, from: Self.fixture("verify-email-request.json")).code == "7Q2K19XD")
    }

    @Test func theSeed004ErrorBodyDecodesWithItsDetails() throws {
        let body = try decoder.decode(ClarityErrorBody.self, from: Self.fixture("error.json"))
        #expect(body.error == "validation_failed")
        #expect(body.displayMessage == "limit must be between 1 and 100")
        #expect(body.details?["max"] == .number(100))
        #expect(body.details?["allowed"] == .array([.number(1), .number(100)]))
        #expect(body.details?["strict"] == .bool(true))
        #expect(body.details?["hint"] == .null)
        let bare = try decoder.decode(ClarityErrorBody.self, from: Data(#"{"error": "rate_limited", "details": "try later"}"#.utf8))
        #expect(bare.displayMessage == "rate_limited", "without a message, the error names the failure")
        #expect(bare.details == nil, "details of another type are left out, not fatal")
    }

    @Test(arguments: [
        ("error.json", "limit must be between 1 and 100", "validation_failed"),
        ("error-fastapi-detail.json", "Not authenticated", nil),
        ("error-fastapi-validation.json", "body.email: field required", nil),
    ] as [(String, String, String?)])
    func anErrorBodyGivesTheCourierErrorItsServerMessage(fixture: String, message: String, code: String?) async throws {
        let transport = StubTransport()
        transport.stub(.post, "/api/v1/auth/verify-email", with: MockResponse(
            status: .unprocessableContent, headers: [.contentType: "application/json"], body: try Self.fixture(fixture)
        ))
        let clarity = ClarityClient(baseURL: try #require(URL(string: "https://clarity.test/api/v1")), transport: transport)
        let error = await courierError { _ = try await clarity.verifyEmail(code: "nope") }
        #expect(error?.status?.code == 422)
        #expect(error?.serverMessage == message)
        #expect(error?.serverCode == code)
    }

    @Test(arguments: ["https://clarity.test", "https://clarity.test/", "https://clarity.test/api/v1", "https://clarity.test/api/v1/"])
    func aBaseURLWithOrWithoutTheAPIRootSendsEachPathOnce(base: String) async throws {
        let transport = StubTransport()
        transport.stub(.post, "/api/v1/auth/verify-email", with: try .json(MessageResponse(message: "Email verified")))
        let clarity = ClarityClient(baseURL: try #require(URL(string: base)), transport: transport)
        #expect(clarity.client.configuration.baseURL.absoluteString == "https://clarity.test/api/v1")
        #expect(try await clarity.verifyEmail(code: "7Q2K19XD").message == "Email verified")
        let sent = try #require(transport.requests.first)
        #expect(sent.request.path == "/api/v1/auth/verify-email")
        #expect(try sent.decodedBody(as: VerifyEmailRequest.self) == VerifyEmailRequest(code: "7Q2K19XD"))
    }
}
