import ClarityAPI
import ClarityOpenAPI
import Courier
import CourierTesting
import Foundation
import HTTPTypes
import OpenAPIRuntime
import ReferenceServer
import Testing

/// The reference server's CLARITY routes, checked against the backend's published document, and
/// `ClarityClient` against the server: the demo's and the tests' CLARITY is the real contract.
@Suite("CLARITY on the reference server")
struct ClarityReferenceServerTests {
    /// A signed-in CLARITY client on the reference server, with the user it signed in as.
    private func withClarity(
        _ kind: TransportKind = .asyncHTTPClient,
        configure: @escaping (inout ClientConfiguration) -> Void = { _ in },
        _ body: (ClarityClient, ClarityUserInfo, ReferenceServer) async throws -> Void
    ) async throws {
        try await withRunningServer { server, url in
            try await withTransport(kind) { transport in
                let clarity = ClarityClient(baseURL: url, transport: transport, configure: configure)
                let demo = ReferenceServerConfiguration()
                let user = try await clarity.signIn(email: demo.demoEmail, password: demo.demoPassword)
                try await body(clarity, user, server)
            }
        }
    }

    private static func metrics(_ count: Int) -> [HealthMetric] {
        (0..<count).map { HealthMetric(biometricData: .init(heartRate: Double(55 + $0 % 40)), metricType: HealthMetricKind.heartRate.rawValue) }
    }

    @Test(arguments: TransportKind.allCases)
    func everyAnswerOfTheServerIsOneTheDocumentAllows(kind: TransportKind) async throws {
        let sampler = try OpenAPISchemaSampler.clarity()
        try await withClarity(kind) { clarity, user, _ in
            var configuration = clarity.client.configuration
            configuration.acceptsStatus = { _ in true }
            let raw = APIClient(configuration: configuration, transport: clarity.client.transport)
            func check(_ method: HTTPRequest.Method, _ path: String, template: String, json: String? = nil) async throws -> JSONValue {
                let body: RequestBody? = json.map { .data(Data($0.utf8), contentType: "application/json") }
                let answer = try await raw.send(Request<Data>(method: method, path: path, body: body))
                let operation = try #require(sampler.operation(method.rawValue, template), "\(method) \(template)")
                let success = try #require(sampler.success(of: operation))
                #expect(answer.status.code == success.status, "\(method) \(path): \(String(decoding: answer.value, as: UTF8.self))")
                let value = try JSONDecoder().decode(JSONValue.self, from: answer.value)
                if let schema = success.schema {
                    #expect(sampler.violations(of: value, against: schema).isEmpty, "\(method) \(path): \(sampler.violations(of: value, against: schema))")
                }
                return value
            }
            _ = try await check(.get, "/api/v1/auth/me", template: "/api/v1/auth/me")
            let upload = try await check(.post, "/api/v1/healthkit/", template: "/api/v1/healthkit/", json: #"{"user_id": "\#(user.userId)", "quantity_samples": [{"identifier": "HKQuantityTypeIdentifierStepCount", "type": "quantity", "value": 12, "start_date": "2025-06-15T08:30:00Z", "end_date": "2025-06-15T08:31:00Z"}]}"#)
            guard case .string(let uploadId)? = upload["upload_id"] else { Issue.record("no upload_id"); return }
            _ = try await check(.get, "/api/v1/healthkit/status/\(uploadId)", template: "/api/v1/healthkit/status/{upload_id}")
            let batch = try await check(.post, "/api/v1/health-data/", template: "/api/v1/health-data/", json: #"{"user_id": "\#(user.userId)", "upload_source": "apple_health", "client_timestamp": "2025-06-15T08:30:00.123456Z", "metrics": [{"metric_type": "heart_rate", "biometric_data": {"heart_rate": 61}}]}"#)
            guard case .string(let processingId)? = batch["processing_id"] else { Issue.record("no processing_id"); return }
            _ = try await check(.get, "/api/v1/health-data/?limit=10", template: "/api/v1/health-data/")
            _ = try await check(.get, "/api/v1/health-data/processing/\(processingId)", template: "/api/v1/health-data/processing/{processing_id}")
            let steps = try await check(.post, "/api/v1/pat/step-analysis", template: "/api/v1/pat/step-analysis", json: #"{"step_counts": [0, 40, 80], "timestamps": ["2025-06-15T08:30:00Z", "2025-06-15T08:31:00Z", "2025-06-15T08:32:00Z"]}"#)
            _ = try await check(.post, "/api/v1/pat/analysis", template: "/api/v1/pat/analysis", json: #"{"data_points": [{"value": 1.5}, {"value": 0}], "sampling_rate": 1}"#)
            guard case .string(let analysisId)? = steps["analysis_id"] else { Issue.record("no analysis_id"); return }
            _ = try await check(.get, "/api/v1/pat/analysis/\(analysisId)", template: "/api/v1/pat/analysis/{processing_id}")
            _ = try await check(.get, "/api/v1/pat/health", template: "/api/v1/pat/health")
            let insight = try await check(.post, "/api/v1/insights/", template: "/api/v1/insights/", json: #"{"analysis_results": {"analysis_id": "\#(analysisId)"}, "insight_type": "sleep"}"#)
            guard case .string(let insightId)? = insight["metadata"]?["insight_id"] else { Issue.record("no insight_id"); return }
            _ = try await check(.get, "/api/v1/insights/\(insightId)", template: "/api/v1/insights/{insight_id}")
            _ = try await check(.get, "/api/v1/insights/history/\(user.userId)?limit=5", template: "/api/v1/insights/history/{user_id}")
            _ = try await check(.get, "/api/v1/insights/status", template: "/api/v1/insights/status")
            _ = try await check(.post, "/api/v1/auth/logout", template: "/api/v1/auth/logout")
        }
    }

    @Test func signInRefreshAndSignOutFollowTheDocument() async throws {
        try await withClarity { clarity, user, server in
            #expect(user.userId == "demo-user")
            #expect(user.email == ReferenceServerConfiguration().demoEmail)
            let before = try #require(try await clarity.session.credential)
            #expect(before.accountID == "demo-user", "the user's id is the credential's account")
            await server.expireAccessTokens()
            await server.resetCounters()
            async let first = clarity.currentUser()
            async let second = clarity.patHealth()
            _ = try await (first, second)
            #expect(await server.requestCount(method: "POST", path: "/api/v1/auth/refresh") == 1, "one refresh for both calls")
            let after = try #require(try await clarity.session.credential)
            #expect(after.refreshToken != before.refreshToken, "the rotated refresh token is kept")
            #expect(after.accountID == "demo-user")
            try await clarity.signOut()
            #expect(try await clarity.session.credential == nil)
            #expect(await server.requestCount(method: "POST", path: "/api/v1/auth/logout") == 1)
        }
    }

    @Test func aPathWithoutItsSlashIsRedirectedAndThePostFollowsWithItsBodyOnce() async throws {
        try await withClarity { clarity, user, server in
            await server.resetCounters()
            let upload = HealthDataUpload(clientTimestamp: Date(), metrics: Self.metrics(3), uploadSource: "apple_health", userId: user.userId)
            var request = Request<HealthDataResponse>(method: .post, path: "/api/v1/health-data", body: .json(upload))
            request.options.idempotencyKey = UUID().uuidString
            let answer = try await clarity.client.send(request)
            #expect(answer.status == .created)
            #expect(answer.value.acceptedMetrics == 3)
            #expect(await server.requestCount(method: "POST", path: "/api/v1/health-data") == 1, "answered 307")
            #expect(await server.requestCount(method: "POST", path: "/api/v1/health-data/") == 1, "followed once, with its body")
            #expect(try await clarity.healthData(limit: 10).items.count == 3)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func healthDataIsWrittenOnceByKeyAndReadPageByPageByCursor(kind: TransportKind) async throws {
        try await withClarity(kind) { clarity, user, server in
            let upload = HealthDataUpload(clientTimestamp: Date(), metrics: Self.metrics(25), uploadSource: "apple_health", userId: user.userId)
            let first = try await clarity.submitHealthData(upload, idempotencyKey: "batch-1")
            let repeated = try await clarity.submitHealthData(upload, idempotencyKey: "batch-1")
            #expect(repeated.processingId == first.processingId, "the same key stores the batch once")
            #expect(first.state == .completed || first.state == .processing)
            var pages: [ClarityHealthDataPage] = []
            for try await page in clarity.healthData(pageSize: 10, type: .heartRate) { pages.append(page) }
            #expect(pages.map(\.items.count) == [10, 10, 5])
            #expect(pages.last?.pagination.hasNext == false)
            #expect(pages.flatMap(\.items).allSatisfy { $0.kind == .heartRate && $0.metricId != nil && $0.createdAt != nil })
            #expect(try await clarity.healthData(limit: 10, type: .bloodGlucose).items.isEmpty)
            let processing = try await clarity.healthDataProcessing(processingId: try #require(first.processingId))
            #expect(processing.totalMetrics == 25)
            #expect(processing.state == .completed)
            #expect(await server.requestCount(method: "POST", path: "/api/v1/health-data/") == 2)
        }
    }

    @Test func aHealthKitExportOnDiskIsUploadedWithProgressAndAnotherUsersIsRefused() async throws {
        try await withClarity { clarity, user, _ in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("clarity-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let sample = HealthKitSample(endDate: "2025-06-15T08:31:00Z", identifier: "HKQuantityTypeIdentifierHeartRate", startDate: "2025-06-15T08:30:00Z", _type: "quantity", value: .init(value1: 61))
            let file = folder.appendingPathComponent("export.json")
            try JSONEncoder().encode(HealthKitUploadRequest(quantitySamples: Array(repeating: sample, count: 2_000), userId: user.userId)).write(to: file)
            let transfer = try clarity.uploadHealthKit(fileAt: file)
            var last: TransferProgress?
            for await step in transfer.progress { last = step }
            let receipt = try await transfer.value()
            #expect(receipt.samplesReceived.additionalProperties["quantity_samples"] == 2_000)
            #expect(last?.completedBytes == Int64(try Data(contentsOf: file).count))
            let status = try await clarity.healthKitUploadStatus(uploadId: receipt.uploadId)
            #expect(status.uploadId == receipt.uploadId)
            #expect(status.state == .completed)

            let stranger = await courierError { _ = try await clarity.uploadHealthKit(HealthKitUploadRequest(quantitySamples: [sample], userId: "someone-else")) }
            #expect(stranger?.code == .forbidden)
        }
    }

    @Test func aCompletedAnalysisComesFromTheCacheAndInsightsPageNewestFirst() async throws {
        try await withClarity(configure: { $0.cache = HTTPCache(storage: MemoryCacheStorage()) }) { clarity, user, server in
            let steps = (0..<1_440).map { minute in minute < 420 ? 0 : 20 + minute % 60 }
            let submitted = try await clarity.analyzeSteps(.minutely(steps, from: Date(timeIntervalSince1970: 1_795_000_000)))
            #expect(submitted.state == .completed)
            let results = try #require(submitted.analysis)
            #expect(results.userId == user.userId)
            #expect(results.sleepEfficiency > 0)
            _ = try await clarity.analysis(id: submitted.analysisId)
            let again = try await clarity.awaitAnalysis(id: submitted.analysisId)
            #expect(again.patFeatures?.additionalProperties["sleep_efficiency"] == results.sleepEfficiency)
            #expect(await server.requestCount(method: "GET", path: "/api/v1/pat/analysis/\(submitted.analysisId)") == 1, "immutable once complete")

            var ids: [String] = []
            for type in ["sleep", "activity", "circadian"] {
                let insight = try await clarity.generateInsight(.fromAnalysis(id: submitted.analysisId, insightType: type))
                #expect(insight.success)
                #expect(insight.data.userId == user.userId)
                ids.append(try #require(insight.insightId))
            }
            #expect(try await clarity.insight(id: ids[0]).data.narrative.isEmpty == false)
            var seen: [String] = []
            for try await page in clarity.insightHistory(userId: user.userId, pageSize: 2) { seen += page.insights.compactMap(\.id) }
            #expect(seen == ids.reversed(), "newest first, every page")
            let forbidden = await courierError { _ = try await clarity.insightHistory(userId: "someone-else") }
            #expect(forbidden?.code == .forbidden)
            let status = try await clarity.insightsStatus()
            #expect(status.service == "insights")
            #expect(status.status == "healthy")
        }
    }

    @Test func aRegistrationSignsInAndTheEmailIsConfirmedWithItsCode() async throws {
        try await withRunningServer { server, url in
            try await withTransport { transport in
                let clarity = ClarityClient(baseURL: url, transport: transport)
                guard case .signedIn(let user) = try await clarity.register(email: "grace@example.com", password: "compiler-1952", displayName: "Grace") else {
                    Issue.record("the reference server signs a new account in")
                    return
                }
                #expect(user.displayName == "Grace")
                #expect(user.emailVerified == false)
                let code = try #require(await server.verificationToken(email: "grace@example.com"))
                #expect(try await clarity.verifyEmail(email: "grace@example.com", code: code).status == "email_confirmed")
                #expect(try await clarity.currentUser().emailVerified)
                let reused = await courierError { _ = try await clarity.verifyEmail(email: "grace@example.com", code: code) }
                #expect(reused?.status?.code == 400)
            }
        }
    }
}
