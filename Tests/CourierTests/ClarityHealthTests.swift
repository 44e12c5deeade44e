import ClarityAPI
import ClarityCore
import Courier
import CourierAsyncHTTPClient
import Foundation
import ReferenceServer
import Testing

/// A signed-in CLARITY client with a memory cache, on a reference server.
func withClarity(
    _ configuration: ReferenceServerConfiguration = ReferenceServerConfiguration(),
    _ body: (ClarityClient, ClarityUser, ReferenceServer) async throws -> Void
) async throws {
    try await withRunningServer(configuration) { server, url in
        let transport = AsyncHTTPClientTransport()
        let clarity = ClarityClient(baseURL: url, transport: transport) { $0.cache = HTTPCache(storage: MemoryCacheStorage()) }
        do {
            let user = try await clarity.signIn(email: configuration.demoEmail, password: configuration.demoPassword)
            try await body(clarity, user, server)
            try await transport.shutdown()
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }
}

/// A day of one-minute step counts: a night of rest, then a day of walking in bursts.
private func aDayOfSteps(seed: Int = 0) -> StepAnalysisRequest {
    let counts = (0..<1_440).map { minute in minute < 420 ? 0 : ((minute + seed) % 7 == 0 ? 0 : 40 + (minute * 13 + seed) % 60) }
    return StepAnalysisRequest(stepCounts: counts, start: Date(timeIntervalSince1970: 1_795_000_000))
}

@Suite("CLARITY analysis and insights against the reference server")
struct ClarityHealthTests {
    @Test func theSameStepsGiveTheSameAnalysisAndOtherStepsAnother() async throws {
        try await withClarity { clarity, _, _ in
            let first = try await clarity.analyzeSteps(aDayOfSteps())
            let again = try await clarity.analyzeSteps(aDayOfSteps())
            let other = try await clarity.analyzeSteps(aDayOfSteps(seed: 3))
            #expect(first.status == .completed)
            #expect(first.kind == .stepData)
            #expect(first.processingId != again.processingId)
            #expect(first.analysis == again.analysis)
            #expect(first.analysis != other.analysis)
            let analysis = try #require(first.analysis)
            #expect(analysis.sampleCount == 1_440)
            #expect((0...100).contains(analysis.sleepEfficiency))
            #expect(analysis.totalSleepTime > 6, "seven hours of rest at the start")
        }
    }

    @Test func aCompletedAnalysisIsReadFromTheCacheAfterTheFirstRead() async throws {
        try await withClarity { clarity, _, server in
            let submitted = try await clarity.client.send(ClarityHealthEndpoints.analyzeActigraphy(ActigraphyAnalysisRequest(
                dataPoints: (0..<600).map { ActigraphyDataPoint(timestamp: Date(timeIntervalSince1970: Double($0) * 60), value: Double($0 % 50)) },
                durationHours: 10
            )))
            #expect(submitted.status == .accepted)
            #expect(submitted.headers[.location] == "/api/v1/pat/analysis/\(submitted.value.processingId)")
            let path = "/api/v1/pat/analysis/\(submitted.value.processingId)"
            let read = try await clarity.client.send(ClarityHealthEndpoints.analysis(id: submitted.value.processingId))
            let cached = try await clarity.client.send(ClarityHealthEndpoints.analysis(id: submitted.value.processingId))
            #expect(read.headers[.cacheControl]?.contains("immutable") == true)
            #expect(cached.metrics.cacheStatus == .hit)
            #expect(cached.value == read.value)
            #expect(await server.requestCount(method: "GET", path: path) == 1)
        }
    }

    @Test func aProcessingAnalysisIsNeverStoredAndIsPolledUntilItCompletes() async throws {
        var configuration = ReferenceServerConfiguration()
        configuration.analysisProcessingTime = .seconds(3_600)
        try await withClarity(configuration) { clarity, _, server in
            let submitted = try await clarity.client.value(for: ClarityHealthEndpoints.analyzeSteps(aDayOfSteps()))
            #expect(submitted.status == .processing)
            let path = "/api/v1/pat/analysis/\(submitted.processingId)"
            let processing = try await clarity.client.send(ClarityHealthEndpoints.analysis(id: submitted.processingId))
            _ = try await clarity.client.send(ClarityHealthEndpoints.analysis(id: submitted.processingId))
            #expect(processing.value.status == .processing)
            #expect(processing.headers[.cacheControl] == "no-store")
            #expect(processing.headers[.retryAfter] == "1")
            #expect(await server.requestCount(method: "GET", path: path) == 2, "not stored")

            let timedOut = await courierError {
                _ = try await clarity.awaitCompletion(of: submitted, pollInterval: .milliseconds(5), timeout: .milliseconds(12))
            }
            #expect(timedOut?.code == .timedOut)
            await server.finishPendingAnalyses()
            let done = try await clarity.awaitCompletion(of: submitted, pollInterval: .milliseconds(5), timeout: .seconds(20))
            #expect(done.status == .completed)
            #expect(done.analysis != nil)
            #expect(done.completedAt != nil)
        }
    }

    @Test func invalidSamplesAreRejectedWithTheServersReason() async throws {
        try await withClarity { clarity, _, _ in
            let mismatched = await courierError {
                _ = try await clarity.client.send(ClarityHealthEndpoints.analyzeSteps(StepAnalysisRequest(stepCounts: [1, 2, 3], timestamps: [Date()])))
            }
            #expect(mismatched?.status?.code == 422)
            #expect(mismatched?.bodySnippet?.contains("same length") == true)
            let empty = await courierError {
                _ = try await clarity.client.send(ClarityHealthEndpoints.analyzeActigraphy(ActigraphyAnalysisRequest(dataPoints: [], durationHours: 1)))
            }
            #expect(empty?.status?.code == 422)
            let unknown = await courierError { _ = try await clarity.analysis(id: "pat_999") }
            #expect(unknown?.code == .notFound)
        }
    }

    @Test func insightHistoryPagesWalkEveryInsightNewestFirst() async throws {
        try await withClarity { clarity, user, server in
            let analysis = try await clarity.analyzeSteps(aDayOfSteps())
            var generated: [Insight] = []
            for type in [InsightType.comprehensive, .sleep, .activity, .circadian, .comprehensive] {
                generated.append(try await clarity.generateInsight(InsightRequest(analysisId: analysis.processingId, insightType: type)))
            }
            var pages: [InsightHistoryPage] = []
            for try await page in clarity.insightHistory(userId: user.id, pageSize: 2) { pages.append(page) }
            #expect(pages.map(\.insights.count) == [2, 2, 1])
            #expect(pages.flatMap(\.insights).map(\.insightId) == generated.reversed().map(\.insightId))
            #expect(pages.allSatisfy { $0.totalCount == 5 })
            #expect(await server.requestCount(method: "GET", path: "/api/v1/insights/history/\(user.id)") == 3)

            let one = try await clarity.insight(id: generated[1].insightId)
            _ = try await clarity.insight(id: generated[1].insightId)
            #expect(one == generated[1])
            #expect(one.sourceAnalysisId == analysis.processingId)
            #expect(one.insightType == .sleep)
            #expect(await server.requestCount(method: "GET", path: "/api/v1/insights/\(one.insightId)") == 1, "an insight is immutable")
        }
    }

    @Test func aGrowingHistoryIsRevalidatedNotServedStale() async throws {
        try await withClarity { clarity, user, _ in
            let analysis = try await clarity.analyzeSteps(aDayOfSteps())
            _ = try await clarity.generateInsight(InsightRequest(analysisId: analysis.processingId))
            let before = try await clarity.client.send(ClarityHealthEndpoints.insightHistory(userId: user.id))
            let unchanged = try await clarity.client.send(ClarityHealthEndpoints.insightHistory(userId: user.id))
            _ = try await clarity.generateInsight(InsightRequest(analysisId: analysis.processingId, insightType: .sleep))
            let after = try await clarity.client.send(ClarityHealthEndpoints.insightHistory(userId: user.id))
            #expect(before.value.totalCount == 1)
            #expect(unchanged.metrics.cacheStatus == .revalidated)
            #expect(after.value.totalCount == 2)
            #expect(after.metrics.cacheStatus == .network)
        }
    }

    @Test func anotherUsersHistoryIsForbiddenAndUnknownSourcesAreRejected() async throws {
        try await withClarity { clarity, _, _ in
            let forbidden = await courierError { _ = try await clarity.client.send(ClarityHealthEndpoints.insightHistory(userId: "someone-else")) }
            #expect(forbidden?.code == .forbidden)
            let unknown = await courierError { _ = try await clarity.generateInsight(InsightRequest(analysisId: "pat_404")) }
            #expect(unknown?.code == .notFound)
            let nothing = await courierError { _ = try await clarity.generateInsight(InsightRequest()) }
            #expect(nothing?.status?.code == 422)
        }
    }

    @Test func serviceStatusIsAlwaysAskedOfTheServer() async throws {
        try await withClarity { clarity, _, server in
            let health = try await clarity.patHealth()
            _ = try await clarity.patHealth()
            let insights = try await clarity.insightsStatus()
            #expect(health.status == .healthy)
            #expect(health.service == "pat-analysis")
            #expect(insights.service == "insights")
            #expect(await server.requestCount(method: "GET", path: "/api/v1/pat/health") == 2, "no-store")
        }
    }
}
