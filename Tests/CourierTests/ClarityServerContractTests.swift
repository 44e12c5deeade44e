import ClarityAPI
import ClarityCore
import Courier
import CourierAsyncHTTPClient
import Foundation
import ReferenceServer
import Testing

/// The reference server answers every endpoint of seed 002's checklist with the shapes of the
/// hand-written CLARITY fixtures, and CLARITY's writes leave no stale list in the cache.
@Suite("CLARITY wire contract against the reference server")
struct ClarityServerContractTests {
    /// Checks that a body the server sent has the fixture's keys: none the fixture lacks, and
    /// every fixture key except the optional ones the server left out (it omits `nil`s).
    private static func expectKeys(
        of sent: Data, match fixture: String, at member: String? = nil, optional: Set<String> = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let fixtureData = try ClarityContractTests.fixture(fixture)
        let sentKeys = try RadarContractTests.keys(of: member.map { try Self.member($0, of: sent) } ?? sent)
        let fixtureKeys = try RadarContractTests.keys(of: member.map { try Self.member($0, of: fixtureData) } ?? fixtureData)
        #expect(sentKeys.subtracting(fixtureKeys).isEmpty, "\(fixture): undocumented keys \(sentKeys.subtracting(fixtureKeys))", sourceLocation: sourceLocation)
        #expect(fixtureKeys.subtracting(sentKeys).isSubset(of: optional), "\(fixture): missing keys \(fixtureKeys.subtracting(sentKeys))", sourceLocation: sourceLocation)
    }

    /// One member of a JSON object, as JSON.
    private static func member(_ name: String, of json: Data) throws -> Data {
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        return try JSONSerialization.data(withJSONObject: try #require(object[name]))
    }

    @Test func everyChecklistEndpointAnswersInTheFixturesShape() async throws {
        try await withClarity { clarity, user, server in
            let client = clarity.client
            let unsigned = RequestOptions(requiresAuth: false, retryPolicy: RetryPolicy.none)
            let login = try await client.send(Request<Data>(
                method: .post, path: "/auth/login", body: .json(LoginRequest(email: "demo@courier.dev", password: "courier-demo")), options: unsigned
            ))
            try Self.expectKeys(of: login.data, match: "token-response.json")
            try Self.expectKeys(of: login.data, match: "token-response.json", at: "user", optional: ["displayName"])
            try Self.expectKeys(of: try await client.send(Request<Data>(path: "/auth/me")).data, match: "user.json", optional: ["displayName"])

            let upload = HealthDataUpload(
                metrics: [HealthMetric(type: .heartRate, value: 61, unit: "bpm", timestamp: Date(), source: "apple_watch")], clientTimestamp: Date()
            )
            let submitted = try await client.send(Request<Data>(method: .post, path: "/health-data", body: .json(upload)))
            try Self.expectKeys(of: submitted.data, match: "health-data-processing.json", optional: ["completedAt", "message"])
            let processing = try JSONCoding.makeDecoder().decode(HealthDataResponseDTO.self, from: submitted.data)
            let status = try await client.send(Request<Data>(path: "/health-data/processing/\(processing.processingId)"))
            try Self.expectKeys(of: status.data, match: "health-data-processing.json", optional: ["completedAt", "message"])
            let page = try await client.send(Request<Data>(path: "/health-data", query: [URLQueryItem(name: "page", value: "1"), URLQueryItem(name: "limit", value: "10")]))
            try Self.expectKeys(of: page.data, match: "health-data-page.json")
            try Self.expectKeys(of: page.data, match: "health-data-page.json", at: "data", optional: ["source"])
            try Self.expectKeys(of: page.data, match: "health-data-page.json", at: "meta")

            var samples = try JSONCoding.makeDecoder().decode(HealthKitUploadRequestDTO.self, from: ClarityContractTests.fixture("healthkit-upload-request.json"))
            samples.userId = user.id
            let receipt = try await client.send(Request<Data>(method: .post, path: "/healthkit_upload", body: .json(samples)))
            try Self.expectKeys(of: receipt.data, match: "healthkit-upload-response.json")
            let uploadId = try JSONCoding.makeDecoder().decode(HealthKitUploadResponseDTO.self, from: receipt.data).uploadId
            try Self.expectKeys(of: try await client.send(Request<Data>(path: "/healthkit_upload/\(uploadId)/status")).data, match: "healthkit-upload-status.json")

            let steps = try JSONCoding.makeDecoder().decode(StepDataRequestDTO.self, from: ClarityContractTests.fixture("step-analysis-request.json"))
            let accepted = try await client.send(Request<Data>(method: .post, path: "/pat/step-analysis", body: .json(steps)))
            try Self.expectKeys(of: accepted.data, match: "analysis-completed.json", optional: ["completedAt", "analysis", "message"])
            let analysisId = try JSONCoding.makeDecoder().decode(AnalysisResponseDTO.self, from: accepted.data).processingId
            await server.finishPendingAnalyses()
            let completed = try await client.send(Request<Data>(path: "/pat/analysis/\(analysisId)"))
            try Self.expectKeys(of: completed.data, match: "analysis-completed.json", optional: ["message"])
            try Self.expectKeys(of: completed.data, match: "analysis-completed.json", at: "analysis")
            try Self.expectKeys(of: try await client.send(Request<Data>(path: "/pat/health")).data, match: "service-status.json")

            let insight = try await client.send(Request<Data>(
                method: .post, path: "/insights/generate", body: .json(InsightRequest(analysisId: analysisId, insightType: .sleep))
            ))
            try Self.expectKeys(of: insight.data, match: "insight.json")
            let insightId = try JSONCoding.makeDecoder().decode(Insight.self, from: insight.data).insightId
            try Self.expectKeys(of: try await client.send(Request<Data>(path: "/insights/\(insightId)")).data, match: "insight.json")
            let history = try await client.send(Request<Data>(path: "/insights/history/\(user.id)"))
            try Self.expectKeys(of: history.data, match: "insight-history.json")
            try Self.expectKeys(of: history.data, match: "insight-history.json", at: "insights")
            try Self.expectKeys(of: try await client.send(Request<Data>(path: "/insights/status")).data, match: "service-status.json")

            let refreshToken = try #require(try await clarity.session.credential?.refreshToken)
            let logout = try await client.send(Request<Data>(method: .post, path: "/auth/logout", body: .json(LogoutRequest(refreshToken: refreshToken))))
            try Self.expectKeys(of: logout.data, match: "message.json")
        }
    }

    @Test func theChecklistMethodsSpeakTheirEndpoints() async throws {
        try await withClarity { clarity, user, server in
            let registered = try await clarity.register(RegisterRequest(email: "grace@example.com", password: "compiler-1952"))
            let code = try #require(await server.verificationToken(email: "grace@example.com"))
            #expect(try await clarity.verifyEmail(code: code).message == "Email verified")
            #expect(try await clarity.currentUser().emailVerified)
            let used = await courierError { _ = try await clarity.verifyEmail(code: code) }
            #expect(used?.status?.code == 400)
            #expect(used?.serverCode == "invalid_token")

            _ = try await clarity.submitHealthData(HealthDataUpload(
                metrics: [HealthMetric(type: .stepCount, value: 4_200, unit: "steps", timestamp: Date())], clientTimestamp: Date()
            ))
            let page = try await clarity.healthData(page: 1, limit: 10)
            #expect(page.data.map(\.type) == [.stepCount])
            #expect(page.meta.currentPage == 1)
            let history = try await clarity.insightHistory(userId: registered.id, limit: 5, offset: 0)
            #expect(history.insights.isEmpty)
            #expect(history.limit == 5)
            #expect(user.id != registered.id)
        }
    }

    @Test func generatingAnInsightDropsTheCachedHistory() async throws {
        try await withClarity { clarity, user, _ in
            let analysis = try await clarity.analyzeSteps(
                try JSONCoding.makeDecoder().decode(StepDataRequestDTO.self, from: ClarityContractTests.fixture("step-analysis-request.json"))
            )
            _ = try await clarity.insightHistory(userId: user.id, limit: 20, offset: 0)
            var cached = ClarityHealthEndpoints.insightHistory(userId: user.id, limit: 20, offset: 0)
            cached.options.cachePolicy = .cacheOnly
            #expect(try await clarity.client.send(cached).value.totalCount == 0, "the history is in the cache")

            _ = try await clarity.generateInsight(InsightRequest(analysisId: analysis.processingId))
            let miss = await courierError { _ = try await clarity.client.send(cached) }
            #expect(miss?.code == .notCached, "the write dropped every cached page of history")
            #expect(try await clarity.insightHistory(userId: user.id, limit: 20, offset: 0).totalCount == 1)
        }
    }

    @Test func inlineResultsOfAnySizeGetAnInsightNotACrash() async throws {
        try await withClarity { clarity, _, _ in
            // Found by scripts/api-check.sh: a sleep efficiency past Int's range trapped the server.
            let body = Data(#"""
            {"insightType": "comprehensive", "includeRecommendations": true, "analysisResults": {
              "sleepEfficiency": -1.4254247207393008e+251, "sleepOnsetLatency": 0, "wakeAfterSleepOnset": 1.7976931348623157e+308,
              "totalSleepTime": -1e-302, "circadianRhythmScore": -1.7976931348623157e+308, "activityFragmentation": 1e16,
              "depressionRiskScore": 0, "confidenceScore": 1, "sampleCount": 2, "clinicalInsights": []}}
            """#.utf8)
            let answer = try await clarity.client.send(Request<Data>(
                method: .post, path: "/insights/generate", body: .data(body, contentType: "application/json")
            ))
            #expect(answer.status == .created)
            #expect(try await clarity.client.send(Request<Data>(path: "/pat/health")).status == .ok, "the server is still up")
        }
    }
}
