import ClarityAPI
import ClarityOpenAPI
import Courier
import CourierOpenAPI
import Crypto
import Foundation
import OpenAPIRuntime
import Testing

/// The CLARITY client generated from the backend's published document
/// (`Contracts/clarity-backend/openapi.json`), checked against that document itself.
@Suite("CLARITY's published document")
struct ClarityDocumentTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theCommittedClientWasGeneratedFromThePublishedDocumentAndTransformAsTheyAreNow() throws {
        let recorded = try String(contentsOf: Self.root.appendingPathComponent("Sources/ClarityOpenAPI/document.sha256"), encoding: .utf8)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        func digest(_ url: URL) throws -> String {
            SHA256.hash(data: try Data(contentsOf: url)).map { String(format: "%02x", $0) }.joined()
        }
        let expected = [
            try digest(OpenAPISchemaSampler.clarityDocumentURL),
            try digest(Self.root.appendingPathComponent("scripts/clarity_openapi_input.py")),
        ]
        #expect(recorded == expected, "the document or its transform changed: run scripts/openapi-generate.sh and commit its output")
    }

    // MARK: - Datetimes as the service writes them

    @Test(arguments: [
        ("2025-06-15T08:30:00.123456Z", 1_749_976_200.123456),
        ("2025-06-15T08:30:00Z", 1_749_976_200),
        ("2025-06-15T08:30:00+00:00", 1_749_976_200),
        ("2025-06-15T08:30:00.5+00:00", 1_749_976_200.5),
        ("2025-06-15T10:30:00+02:00", 1_749_976_200),
        ("2025-06-15T03:00:00-0530", 1_749_976_200),
        ("2025-06-15T08:30:00", 1_749_976_200),
        ("2025-06-15T08:30:00.123456", 1_749_976_200.123456),
        ("2025-06-15 08:30:00", 1_749_976_200),
        ("2024-02-29T00:00:00Z", 1_709_164_800),
        ("1969-12-31T23:59:59.5Z", -0.5),
    ])
    func theServicesDatetimeFormsAllRead(text: String, seconds: Double) throws {
        let date = try ClarityDateTranscoder().decode(text)
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.000_001, "\(text)")
    }

    @Test(arguments: ["2025-06-15", "2025-13-01T00:00:00Z", "2025-02-29T00:00:00Z", "2025-06-15T08:30:00Zjunk", "2025-06-15T08:30:00.Z", "", "2025-06-15T24:00:00Z", "2025-06-15T08:30:00+25:00"])
    func anythingElseIsADecodingError(text: String) {
        #expect(throws: DecodingError.self) { try ClarityDateTranscoder().decode(text) }
    }

    @Test func datesAreWrittenInUTCWithMicrosecondsOnlyWhenThereAreAny() throws {
        let transcoder = ClarityDateTranscoder()
        #expect(try transcoder.encode(Date(timeIntervalSince1970: 1_749_976_200)) == "2025-06-15T08:30:00Z")
        #expect(try transcoder.encode(Date(timeIntervalSince1970: 1_749_976_200.123456)) == "2025-06-15T08:30:00.123456Z")
        #expect(try transcoder.encode(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500000Z")
        for seconds in [0.0, 951_782_400, 1_749_976_200.25, 4_102_444_800] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(try transcoder.decode(transcoder.encode(date)) == date)
        }
    }

    // MARK: - Every checklist operation against an origin that answers as the document allows

    @Test(arguments: TransportKind.allCases, OpenAPISchemaSampler.Completeness.allCases)
    func everyChecklistOperationDecodesWhatTheDocumentAllowsAndSendsWhatItTakes(
        kind: TransportKind, completeness: OpenAPISchemaSampler.Completeness
    ) async throws {
        var sampler = try OpenAPISchemaSampler.clarity()
        // A naive datetime with microseconds in one run, an explicit +00:00 in the other.
        sampler.dateTime = completeness == .everyProperty ? "2025-06-15T08:30:00.123456" : "2025-06-15T08:30:00+00:00"
        try await DocumentOrigin.withRunning(sampler, completeness) { origin, url in
            try await withTransport(kind) { transport in
                let courier = APIClient(baseURL: url, transport: transport)
                let api = Client(
                    serverURL: url, configuration: Configuration(dateTranscoder: ClarityDateTranscoder()),
                    transport: CourierClientTransport(client: courier)
                )
                let checklist = try await Self.callEveryChecklistOperation(api)
                #expect(checklist == 19)
                let exchanges = origin.exchanges
                #expect(exchanges.count == 19)
                for exchange in exchanges {
                    #expect(exchange.template.hasPrefix("/api/v1/"), "\(exchange.method) \(exchange.template) is not in the document")
                    #expect(exchange.violations.isEmpty, "\(exchange.method) \(exchange.template): \(exchange.violations)")
                }
            }
        }
    }

    @Test func theOriginTellsABodyThatBreaksTheRequestSchemaAndAnUnknownPath() async throws {
        try await DocumentOrigin.withRunning(try OpenAPISchemaSampler.clarity(), .requiredOnly) { origin, url in
            try await withTransport { transport in
                var configuration = ClientConfiguration(baseURL: url)
                configuration.acceptsStatus = { _ in true }
                let courier = APIClient(configuration: configuration, transport: transport)
                _ = try await courier.send(Request<Data>(method: .post, path: "/api/v1/auth/login", body: .data(Data(#"{"email": 7}"#.utf8), contentType: "application/json")))
                let notFound = try await courier.send(Request<Data>(path: "/api/v1/healthkit_upload"))
                #expect(notFound.status == .notFound)
                let exchanges = origin.exchanges
                #expect(exchanges.first?.violations.sorted() == ["$.email: number where the schema allows string", "$: missing required \"password\""])
                #expect(exchanges.last?.template == "/api/v1/healthkit_upload", "seed 002's illustrative path is not the service's")
            }
        }
    }

    /// Calls each of seed 002's checklist operations once and reads its documented answer;
    /// returns how many it called.
    private static func callEveryChecklistOperation(_ api: Client) async throws -> Int {
        let when = Date(timeIntervalSince1970: 1_749_976_200.123456)
        var count = 0
        func call<T>(_ read: () async throws -> T) async throws {
            _ = try await read()
            count += 1
        }
        // Auth
        try await call { try await api.registerApiV1AuthRegisterPost(body: .json(.init(email: "new@clarity.test", password: "correct horse"))).ok.body.json }
        try await call { try await api.loginApiV1AuthLoginPost(body: .json(.init(email: "new@clarity.test", password: "correct horse"))).ok.body.json }
        try await call { try await api.refreshTokenApiV1AuthRefreshPost().ok.body.json }
        try await call { try await api.logoutApiV1AuthLogoutPost().ok.body.json }
        try await call { try await api.getCurrentUserInfoApiV1AuthMeGet().ok.body.json }
        try await call { try await api.confirmEmailApiV1AuthConfirmEmailPost(body: .json(.init(code: "123456", email: "new@clarity.test"))).ok.body.json }
        // HealthKit uploads
        let sample = Components.Schemas.HealthKitSample(
            endDate: "2025-06-15T08:31:00Z", identifier: "HKQuantityTypeIdentifierHeartRate", startDate: "2025-06-15T08:30:00Z",
            _type: "quantity", value: .init(value1: 62)
        )
        try await call { try await api.uploadHealthkitDataApiV1HealthkitPost(body: .json(.init(quantitySamples: [sample], userId: "u_1"))).accepted.body.json }
        try await call { try await api.getUploadStatusApiV1HealthkitStatusUploadIdGet(path: .init(uploadId: "up_1")).ok.body.json }
        // Health data
        let upload = Components.Schemas.HealthDataUpload(
            clientTimestamp: when, metrics: [.init(metricType: "heart_rate")], uploadSource: "apple_health", userId: "7d5b0f3e-2a7c-4c1e-9a51-3f1e2b6c8d90"
        )
        try await call { try await api.uploadHealthDataApiV1HealthDataPost(body: .json(upload)).created.body.json }
        try await call { try await api.listHealthDataApiV1HealthDataGet(query: .init(limit: 20, cursor: "c_1")).ok.body.json }
        try await call { try await api.getProcessingStatusApiV1HealthDataProcessingProcessingIdGet(path: .init(processingId: "p_1")).ok.body.json }
        // PAT analysis
        try await call { try await api.analyzeStepDataApiV1PatStepAnalysisPost(body: .json(.init(stepCounts: [0, 12, 40], timestamps: [when, when, when]))).ok.body.json }
        try await call { try await api.analyzeActigraphyDataApiV1PatAnalysisPost(body: .json(.init(dataPoints: [try .init(unvalidatedValue: ["value": 1.5])]))).ok.body.json }
        try await call { try await api.getPatAnalysisApiV1PatAnalysisProcessingIdGet(path: .init(processingId: "p_1")).ok.body.json }
        try await call { try await api.healthCheckApiV1PatHealthGet().ok.body.json }
        // Insights
        try await call { try await api.generateInsightsApiV1InsightsPost(body: .json(.init(analysisResults: try .init(unvalidatedValue: ["sleep_efficiency": 0.9])))).ok.body.json }
        try await call { try await api.getInsightApiV1InsightsInsightIdGet(path: .init(insightId: "i_1")).ok.body.json }
        try await call { try await api.getInsightHistoryApiV1InsightsHistoryUserIdGet(path: .init(userId: "u_1"), query: .init(limit: 10, offset: 0)).ok.body.json }
        try await call { try await api.getServiceStatusApiV1InsightsStatusGet().ok.body.json }
        return count
    }
}
