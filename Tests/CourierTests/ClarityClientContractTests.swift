import ClarityAPI
import ClarityOpenAPI
import Courier
import CourierTesting
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

/// `ClarityClient`, the app-facing layer, against origins that answer as CLARITY's published
/// document allows (``DocumentOrigin``) and as the real service behaves when it fails.
@Suite("CLARITY client on the published contract")
struct ClarityClientContractTests {
    /// A store that holds a credential, so calls are signed without a sign-in call.
    private static var signedIn: InMemoryCredentialStore {
        InMemoryCredentialStore(Credential(accessToken: "access", refreshToken: "refresh", accountID: "u_1"))
    }

    @Test(arguments: TransportKind.allCases, OpenAPISchemaSampler.Completeness.allCases)
    func everyChecklistMethodDecodesWhatTheDocumentAllowsAndSendsWhatItTakes(
        kind: TransportKind, completeness: OpenAPISchemaSampler.Completeness
    ) async throws {
        var sampler = try OpenAPISchemaSampler.clarity()
        sampler.dateTime = completeness == .everyProperty ? "2025-06-15T08:30:00.123456Z" : "2025-06-15T08:30:00"
        // Tokens that last an hour (`expires_in`), so no refresh falls due however slow the run.
        sampler.integer = 3_600
        try await DocumentOrigin.withRunning(sampler, completeness) { origin, url in
            try await withTransport(kind) { transport in
                let clarity = ClarityClient(baseURL: url.appendingPathComponent("api/v1"), transport: transport)
                let me = try await clarity.signIn(email: "ada@clarity.test", password: "correct horse")
                let registration = try await clarity.register(email: "new@clarity.test", password: "correct horse")
                guard case .signedIn = registration else { Issue.record("a 200 register signs in"); return }
                _ = try await clarity.currentUser()
                _ = try await clarity.verifyEmail(email: "new@clarity.test", code: "123456")
                let when = Date(timeIntervalSince1970: 1_749_976_200.25)
                let sample = HealthKitSample(endDate: "2025-06-15T08:31:00Z", identifier: "HKQuantityTypeIdentifierStepCount", startDate: "2025-06-15T08:30:00Z", _type: "quantity", value: .init(value1: 12))
                _ = try await clarity.uploadHealthKit(HealthKitUploadRequest(quantitySamples: [sample], userId: me.userId))
                _ = try await clarity.healthKitUploadStatus(uploadId: "up_1")
                let metric = HealthMetric(biometricData: .init(heartRate: 61), metricType: HealthMetricKind.heartRate.rawValue)
                _ = try await clarity.submitHealthData(HealthDataUpload(clientTimestamp: when, metrics: [metric], uploadSource: "apple_health", userId: "7d5b0f3e-2a7c-4c1e-9a51-3f1e2b6c8d90"))
                let page = try await clarity.healthData(limit: 20)
                #expect(page.items.count == 1)
                _ = try await clarity.healthDataProcessing(processingId: "p_1")
                _ = try await clarity.analyzeSteps(.minutely([0, 12, 40], from: when))
                _ = try await clarity.analyzeActigraphy(try .samples([1.5, 2.5]))
                _ = try await clarity.analysis(id: "p_1")
                _ = try await clarity.patHealth()
                _ = try await clarity.generateInsight(try .fromAnalysis(id: "p_1"))
                _ = try await clarity.insight(id: "i_1")
                _ = try await clarity.insightHistory(userId: me.userId, limit: 10, offset: 0)
                _ = try await clarity.insightsStatus()
                try await clarity.signOut()

                let exchanges = origin.exchanges
                #expect(exchanges.allSatisfy { $0.template.hasPrefix("/api/v1/") }, "\(exchanges.map(\.template).filter { !$0.hasPrefix("/api/v1/") })")
                #expect(exchanges.allSatisfy { $0.violations.isEmpty }, "\(exchanges.filter { !$0.violations.isEmpty }.map { "\($0.template): \($0.violations)" })")
                let called = Set(exchanges.map { "\($0.method) \($0.template)" })
                #expect(called.count == 18, "every checklist operation but refresh, which the session calls only when a token expires: \(called.sorted())")
                let unsigned = exchanges.filter { $0.template.hasSuffix("/login") || $0.template.hasSuffix("/register") || $0.template.hasSuffix("/confirm-email") }
                #expect(unsigned.allSatisfy { $0.authorization == nil }, "sign-in calls carry no credential")
                let signed = exchanges.filter { $0.template.contains("/health") || $0.template.contains("/pat/") || $0.template.contains("/insights/") }
                #expect(signed.allSatisfy { $0.authorization?.hasPrefix("Bearer ") == true }, "every other call is signed")
            }
        }
    }

    // MARK: - The service's habits

    @Test(arguments: [
        (#"{"detail": "Not authenticated"}"#, 401, CourierError.Code.unauthorized, "Not authenticated", nil),
        (#"{"detail": {"type": "invalid_credentials", "title": "Invalid credentials", "detail": "Email or password is incorrect", "status": 401, "instance": "/api/v1/auth/login"}}"#,
         401, .unauthorized, "Email or password is incorrect", "invalid_credentials"),
        (#"{"detail": {"type": "email_not_verified", "title": "Email not verified", "detail": "Confirm your email first", "status": 403}}"#, 403, .forbidden, "Confirm your email first", "email_not_verified"),
        (#"{"detail": [{"loc": ["body", "email"], "msg": "value is not a valid email address", "type": "value_error"}]}"#, 422, .clientError, "body.email: value is not a valid email address", nil),
        (#"{"error": "Internal server error", "code": "AUTH_500", "details": {}}"#, 500, .serverError, "Internal server error", "AUTH_500"),
        (#"{"type": "https://clarity.test/problems/account-locked", "title": "Account locked", "status": 429, "detail": "Too many attempts"}"#, 429, .rateLimited, "Too many attempts", "account-locked"),
    ] as [(String, Int, CourierError.Code, String, String?)])
    func everyErrorShapeOfTheServiceReachesCourierError(body: String, status: Int, code: CourierError.Code, message: String, serverCode: String?) async throws {
        let transport = MockTransport { _, _ in
            MockResponse(status: HTTPResponse.Status(code: status), headers: [.contentType: "application/json"], body: Data(body.utf8))
        }
        let clarity = ClarityClient(baseURL: URL(string: "https://clarity.test")!, transport: transport) { $0.retryPolicy = .none }
        let error = await courierError { _ = try await clarity.signIn(email: "ada@clarity.test", password: "wrong") }
        #expect(error?.code == code)
        #expect(error?.status?.code == status)
        #expect(error?.serverMessage == message)
        #expect(error?.serverCode == serverCode)
        #expect(error.map { "\($0)" }?.contains("wrong") == false, "the password never shows in the error")
    }

    @Test func aRegistrationThatNeedsTheEmailConfirmedSignsNothingIn() async throws {
        let transport = MockTransport { _, _ in
            MockResponse(status: .accepted, headers: [.contentType: "application/json"], body: Data(#"{"requires_email_verification": true}"#.utf8))
        }
        let clarity = ClarityClient(baseURL: URL(string: "https://clarity.test")!, transport: transport)
        #expect(try await clarity.register(email: "new@clarity.test", password: "correct horse") == .confirmationRequired)
        #expect(try await clarity.session.credential == nil)
    }

    @Test func unknownMetricTypesAndStatusesAndAddedFieldsDoNotFailAPage() async throws {
        let page = #"""
        {"data": [{"metric_type": "glucose_variability", "metric_id": "7d5b0f3e-2a7c-4c1e-9a51-3f1e2b6c8d90", "brand_new_field": [1, 2], "created_at": "2025-06-15T08:30:00.5+00:00"},
                  {"metric_type": "heart_rate", "biometric_data": {"heart_rate": 61.0, "future_sensor": 3}}],
         "pagination": {"page_size": 2, "has_next": false, "has_previous": false, "cursor_version": 2},
         "links": {"self": "/api/v1/health-data/?limit=2"}, "generated_by": "v3"}
        """#
        let receipt = #"{"status": "deferred", "accepted_metrics": 1, "message": "later", "region": "eu"}"#
        let transport = MockTransport { request, _ in
            let body = request.method == .post ? receipt : page
            return MockResponse(status: request.method == .post ? .created : .ok, headers: [.contentType: "application/json"], body: Data(body.utf8))
        }
        let clarity = ClarityClient(baseURL: URL(string: "https://clarity.test")!, transport: transport, store: Self.signedIn)
        let read = try await clarity.healthData(limit: 2)
        #expect(read.items.map(\.kind) == [.unknown("glucose_variability"), .heartRate])
        #expect(read.items[0].raw["brand_new_field"] == .array([.number(1), .number(2)]), "what this version does not read stays in raw")
        #expect(read.items[1].biometricData?.heartRate == 61)
        #expect(read.items[0].createdAt == Date(timeIntervalSince1970: 1_749_976_200.5))
        let written = try await clarity.submitHealthData(HealthDataUpload(clientTimestamp: Date(), metrics: [], uploadSource: "test", userId: "u"))
        #expect(written.state == .unknown("deferred"))
    }

    @Test func anAnswerMissingARequiredFieldFailsNamingTheFieldAndTheOperation() async throws {
        let transport = MockTransport { _, _ in
            MockResponse(status: .ok, headers: [.contentType: "application/json"], body: Data(#"{"refresh_token": "r", "expires_in": 900}"#.utf8))
        }
        let clarity = ClarityClient(baseURL: URL(string: "https://clarity.test")!, transport: transport)
        let error = await courierError { _ = try await clarity.signIn(email: "ada@clarity.test", password: "correct horse") }
        #expect(error?.code == .decodingFailed)
        #expect(error?.codingPath == "access_token")
        #expect(error?.message.contains("login") == true)
        #expect(try await clarity.session.credential == nil, "nothing half-decoded is kept")
    }

    @Test func aWrongTypeFailsNamingThePathInsideTheAnswer() async throws {
        let transport = MockTransport { _, _ in
            MockResponse(status: .ok, headers: [.contentType: "application/json"], body: Data(#"{"analysis_id": "a", "status": "completed", "analysis": {"user_id": "u", "sleep_efficiency": "high"}}"#.utf8))
        }
        let clarity = ClarityClient(baseURL: URL(string: "https://clarity.test")!, transport: transport, store: Self.signedIn)
        let error = await courierError { _ = try await clarity.analyzeSteps(.minutely([1], from: Date())) }
        #expect(error?.code == .decodingFailed)
        #expect(error?.codingPath?.hasPrefix("analysis") == true, "\(String(describing: error?.codingPath))")
    }

    @Test func aBodyInACodingTheTransportDoesNotDecodeIsNamedNotReadAsJSON() async throws {
        let transport = MockTransport { _, _ in
            MockResponse(status: .ok, headers: [.contentType: "application/json", .contentEncoding: "br"], body: Data([0x8b, 0x02, 0x80, 0x7b, 0x7d, 0x03]))
        }
        let clarity = ClarityClient(baseURL: URL(string: "https://clarity.test")!, transport: transport, store: Self.signedIn)
        let error = await courierError { _ = try await clarity.patHealth() }
        #expect(error?.code == .contentDecodingFailed)
        #expect(error?.message.contains("br") == true)
    }
}
