import Courier
import CourierAsyncHTTPClient
import Foundation
import ReferenceServer
import Testing

/// Inputs the OpenAPI document calls invalid, which scripts/api-check.sh (schemathesis) found
/// the server accepting: each must be refused with a 4xx.
@Suite("The reference server refuses what its OpenAPI document calls invalid")
struct ReferenceServerInputTests {
    private func status(of request: Request<Data>) async throws -> Int? {
        try await withRunningServer { server, url in
            let transport = AsyncHTTPClientTransport()
            var configuration = ClientConfiguration(baseURL: url, retryPolicy: .none)
            configuration.middleware.append(BearerTokenMiddleware(token: try await demoToken(server)))
            let client = APIClient(configuration: configuration, transport: transport)
            let error = await courierError { _ = try await client.send(request) }
            try? await transport.shutdown()
            return error?.status?.code
        }
    }

    private static func json(_ text: String) -> RequestBody {
        .data(Data(text.utf8), contentType: "application/json")
    }

    @Test(arguments: ["2024-01-01T12:99:00Z", "2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z", "2024-01-01T24:00:00Z", "2024-01-01T00:00:00+25:00"])
    func aDateWithAFieldOutOfRangeIsRefused(date: String) async throws {
        let body = Self.json(#"{"data_points": [{"timestamp": "\#(date)", "value": 1}], "duration_hours": 1, "sampling_rate": 1}"#)
        let status = try await status(of: Request(method: .post, path: "/api/v1/pat/analysis", body: body))
        #expect(status.map { (400..<500).contains($0) } == true, "\(date) → \(status.map(String.init) ?? "accepted")")
    }

    @Test func aLeapDayIsADate() async throws {
        let body = Self.json(#"{"data_points": [{"timestamp": "2024-02-29T23:59:60.5+01:00", "value": 1}], "duration_hours": 1, "sampling_rate": 1}"#)
        #expect(try await status(of: Request(method: .post, path: "/api/v1/pat/analysis", body: body)) == nil)
    }

    @Test func aTopicIsMeasuredInCodePointsAsJSONSchemaCountsThem() async throws {
        // 100 characters of two code points each: 100 as Swift counts them, 200 by JSON Schema.
        let fits = String(repeating: "e\u{301}", count: 100)
        #expect(try await status(of: Request(method: .post, path: "/api/interpret", body: .json(["topic": fits]))) == nil)
        let tooLong = fits + "e\u{301}"
        #expect(try await status(of: Request(method: .post, path: "/api/interpret", body: .json(["topic": tooLong]))) == 422)
    }

    @Test func aPageFarPastTheEndIsEmptyNotACrash() async throws {
        // Found by scripts/api-check.sh: (page - 1) × limit overflowed and trapped the server.
        let request = Request<Data>(path: "/api/v1/health-data", query: [
            URLQueryItem(name: "page", value: "1371340944278443008"), URLQueryItem(name: "limit", value: "58"),
        ])
        #expect(try await status(of: request) == nil)
    }
}
