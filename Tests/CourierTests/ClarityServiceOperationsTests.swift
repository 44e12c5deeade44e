import Courier
import Foundation
import HTTPTypes
import ReferenceServer
import Testing

/// Every operation of CLARITY's published document on the reference server, which implements
/// the server protocol generated from it: each answers, as the document allows and as the real
/// service answers; a body that is not JSON is FastAPI's 422; the operations the service has
/// beside its data (health, info, metrics, chat, test, password reset, profile) work.
@Suite("CLARITY's operations on the reference server")
struct ClarityServiceOperationsTests {
    /// A raw client on a server with the demo account's token, answers of every status read.
    private func withRawClient(
        debugRoutes: Bool = true,
        _ body: (APIClient, ReferenceServer, _ token: String) async throws -> Void
    ) async throws {
        var configuration = ReferenceServerConfiguration().preparedForTests()
        configuration.enablesDebugRoutes = debugRoutes
        let server = ReferenceServer(configuration: configuration)
        let url = try await server.start()
        do {
            try await withTransport(.asyncHTTPClient) { transport in
                var client = ClientConfiguration(baseURL: url, retryPolicy: .none)
                client.acceptsStatus = { _ in true }
                try await body(APIClient(configuration: client, transport: transport), server, try await demoToken(server))
            }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    private static func request(_ method: HTTPRequest.Method, _ path: String, token: String? = nil, json: String? = nil) -> Request<Data> {
        var request = Request<Data>(method: method, path: path, body: json.map { .data(Data($0.utf8), contentType: "application/json") })
        request.options.requiresAuth = false
        if let token { request.headers[.authorization] = "Bearer \(token)" }
        return request
    }

    @Test func everyOperationOfTheDocumentIsServedAndAnswersItsDocumentedSuccess() async throws {
        let sampler = try OpenAPISchemaSampler.clarity()
        try await withRawClient { client, _, token in
            // Path parameters: ids the server does not have (a 404, which the real service
            // answers too and the README lists), the user's own id, a room.
            let values = ["processing_id": "unknown-id", "upload_id": "unknown-id", "insight_id": "unknown-id", "user_id": "demo-user", "room_id": "lobby"]
            var served = 0
            for (method, template) in sampler.operations.sorted(by: { ($0.template, $0.method) < ($1.template, $1.method) }) {
                var path = template
                for (name, value) in values { path = path.replacingOccurrences(of: "{\(name)}", with: value) }
                let operation = try #require(sampler.operation(method, template))
                let body = sampler.requestSchema(of: operation).map { sampler.sample($0, .requiredOnly).jsonText }
                // Logout would end the sign-in the rest of the loop uses.
                if template == "/api/v1/auth/logout" { continue }
                let answer = try await client.send(Self.request(HTTPRequest.Method(method)!, path, token: token, json: body))
                let text = String(decoding: answer.value, as: UTF8.self)
                #expect(answer.status != .notFound || path.contains("unknown-id"), "\(method) \(template) is not served: \(text)")
                #expect(answer.status != .methodNotAllowed, "\(method) \(template): \(text)")
                #expect(answer.status.code < 500, "\(method) \(template): \(text)")
                served += 1
            }
            #expect(served == 36, "every operation but logout was called")

            // The operations that need nothing but a token answer their documented success, in its schema.
            for template in [
                "/", "/health", "/api/v1/", "/api/v1/auth/health", "/api/v1/health-data/health", "/api/v1/pat/models/info",
                "/api/v1/ws/chat/stats", "/api/v1/test/ping", "/api/v1/test/check-middleware", "/api/v1/auth/me",
            ] {
                let answer = try await client.send(Self.request(.get, template, token: token))
                let operation = try #require(sampler.operation("GET", template))
                let success = try #require(sampler.success(of: operation))
                #expect(answer.status.code == success.status, "GET \(template): \(String(decoding: answer.value, as: UTF8.self))")
                let value = try JSONDecoder().decode(JSONValue.self, from: answer.value)
                if let schema = success.schema {
                    #expect(sampler.violations(of: value, against: schema).isEmpty, "GET \(template): \(sampler.violations(of: value, against: schema))")
                }
            }
        }
    }

    @Test func aBodyThatIsNotJSONIsA422InFastAPIsShapeOnEveryOperationThatTakesOne() async throws {
        let sampler = try OpenAPISchemaSampler.clarity()
        try await withRawClient { client, _, token in
            let withBodies = sampler.operations.filter { sampler.operation($0.method, $0.template).flatMap(sampler.requestSchema(of:)) != nil }
            #expect(withBodies.count >= 12)
            for (method, template) in withBodies {
                let answer = try await client.send(Self.request(HTTPRequest.Method(method)!, template, token: token, json: #"{"email": "#))
                #expect(answer.status == .unprocessableContent, "\(method) \(template): \(String(decoding: answer.value, as: UTF8.self))")
                let detail = try JSONDecoder().decode(JSONValue.self, from: answer.value)["detail"]
                guard case .array(let errors)? = detail, let first = errors.first else {
                    Issue.record("\(method) \(template): no validation list: \(String(decoding: answer.value, as: UTF8.self))")
                    continue
                }
                #expect(first["type"] == .string("json_invalid"))
                #expect(first["loc"] == .array([.string("body")]))
            }
            // A body with a field missing names the field, as Pydantic does.
            let missing = try await client.send(Self.request(.post, "/api/v1/auth/login", json: #"{"email": "demo@courier.dev"}"#))
            #expect(missing.status == .unprocessableContent)
            let error = try JSONDecoder().decode(JSONValue.self, from: missing.value)["detail"]
            guard case .array(let errors)? = error else { Issue.record("no validation list"); return }
            #expect(errors.first?["type"] == .string("missing"))
            #expect(errors.first?["loc"] == .array([.string("body"), .string("password")]))
        }
    }

    @Test func signedOperationsRefuseACallWithoutATokenAndOpenOnesAnswerIt() async throws {
        try await withRawClient { client, _, _ in
            for path in ["/api/v1/auth/me", "/api/v1/health-data/", "/api/v1/pat/models/info", "/api/v1/metrics/metrics", "/api/v1/insights/status"] {
                let answer = try await client.send(Self.request(.get, path))
                #expect(answer.status == .unauthorized, "GET \(path)")
                #expect(answer.headers[.wwwAuthenticate] != nil, "GET \(path)")
            }
            for path in ["/", "/health", "/api/v1/", "/api/v1/auth/health", "/api/v1/ws/chat/stats", "/api/v1/test/ping"] {
                #expect(try await client.send(Self.request(.get, path)).status == .ok, "GET \(path)")
            }
            let ping = try await client.send(Self.request(.get, "/api/v1/test/ping", token: "secret-token-value"))
            let text = String(decoding: ping.value, as: UTF8.self)
            #expect(text.contains("\"has_auth_header\":true"))
            #expect(!text.contains("secret-token-value"), "no credential is echoed")
        }
    }

    @Test func metricsArePrometheusTextAndTheDebugRoutesAreAbsentAsInADeployment() async throws {
        try await withRawClient(debugRoutes: false) { client, _, token in
            let metrics = try await client.send(Self.request(.get, "/api/v1/metrics/metrics", token: token))
            #expect(metrics.status == .ok)
            #expect(metrics.headers[.contentType]?.hasPrefix("text/plain") == true)
            #expect(String(decoding: metrics.value, as: UTF8.self).contains("# TYPE clarity_uptime_seconds gauge"))
            for path in ["/api/v1/debug/debug/capture-raw-request", "/api/v1/debug/debug/echo-login"] {
                let answer = try await client.send(Self.request(.post, path, json: "{}"))
                #expect(answer.status == .notFound, "POST \(path)")
                #expect(String(decoding: answer.value, as: UTF8.self) == #"{"detail":"Not Found"}"#)
            }
        }
        try await withRawClient(debugRoutes: true) { client, _, token in
            let answer = try await client.send(Self.request(.post, "/api/v1/debug/debug/capture-raw-request", token: token, json: #"{"a": 1}"#))
            #expect(answer.status == .ok)
            let text = String(decoding: answer.value, as: UTF8.self)
            #expect(text.contains("\"json_valid\":true"))
            #expect(!text.contains(token), "the credential is not echoed")
        }
    }

    @Test func aPasswordIsResetOnlyWithTheCodeSentForItAndTheOldSignInsEnd() async throws {
        try await withRawClient { client, server, _ in
            let email = ReferenceServerConfiguration().demoEmail
            let login = #"{"email": "\#(email)", "password": "\#(ReferenceServerConfiguration().demoPassword)"}"#
            let signedIn = try await client.send(Self.request(.post, "/api/v1/auth/login", json: login))
            #expect(signedIn.status == .ok)
            let refreshToken = try #require(try JSONDecoder().decode(JSONValue.self, from: signedIn.value)["refresh_token"])

            #expect(try await client.send(Self.request(.post, "/api/v1/auth/forgot-password", json: #"{"email": "nobody@example.com"}"#)).status == .ok, "the same answer for no account")
            #expect(await server.passwordResetCode(email: "nobody@example.com") == nil)
            #expect(try await client.send(Self.request(.post, "/api/v1/auth/forgot-password", json: #"{"email": "\#(email)"}"#)).status == .ok)
            let code = try #require(await server.passwordResetCode(email: email))
            let wrong = code == "000000" ? "111111" : "000000"
            let refused = try await client.send(Self.request(.post, "/api/v1/auth/reset-password", json: #"{"email": "\#(email)", "code": "\#(wrong)", "new_password": "a-new-password"}"#))
            #expect(refused.status == .badRequest)
            #expect(String(decoding: refused.value, as: UTF8.self).contains("invalid_code"))
            let short = try await client.send(Self.request(.post, "/api/v1/auth/reset-password", json: #"{"email": "\#(email)", "code": "\#(code)", "new_password": "short"}"#))
            #expect(short.status == .unprocessableContent)
            let reset = try await client.send(Self.request(.post, "/api/v1/auth/reset-password", json: #"{"email": "\#(email)", "code": "\#(code)", "new_password": "a-new-password"}"#))
            #expect(reset.status == .ok)
            #expect(String(decoding: reset.value, as: UTF8.self) == #"{"status":"reset"}"#)

            #expect(try await client.send(Self.request(.post, "/api/v1/auth/login", json: login)).status == .unauthorized, "the old password is gone")
            #expect(try await client.send(Self.request(.post, "/api/v1/auth/login", json: #"{"email": "\#(email)", "password": "a-new-password"}"#)).status == .ok)
            let refresh = try await client.send(Self.request(.post, "/api/v1/auth/refresh", json: #"{"refresh_token": \#(refreshToken.jsonText)}"#))
            #expect(refresh.status == .unauthorized, "the sign-ins before the reset ended")
            let again = try await client.send(Self.request(.post, "/api/v1/auth/reset-password", json: #"{"email": "\#(email)", "code": "\#(code)", "new_password": "another-password"}"#))
            #expect(again.status == .badRequest, "a code works once")
        }
    }

    @Test func theSignedInUserUpdatesTheirProfileAndDeletesABatchOfTheirs() async throws {
        try await withRawClient { client, _, token in
            #expect(try await client.send(Self.request(.put, "/api/v1/auth/me", json: #"{"display_name": "Ada"}"#)).status == .unauthorized)
            let updated = try await client.send(Self.request(.put, "/api/v1/auth/me", token: token, json: #"{"display_name": "Ada"}"#))
            #expect(updated.status == .ok)
            let value = try JSONDecoder().decode(JSONValue.self, from: updated.value)
            #expect(value["updated"] == .bool(true))
            #expect(value["display_name"] == .string("Ada"))
            let me = try JSONDecoder().decode(JSONValue.self, from: try await client.send(Self.request(.get, "/api/v1/auth/me", token: token)).value)
            #expect(me["display_name"] == .string("Ada"))

            let upload = #"{"user_id": "demo-user", "upload_source": "apple_health", "client_timestamp": "2025-06-15T08:30:00Z", "metrics": [{"metric_type": "heart_rate", "biometric_data": {"heart_rate": 61}}, {"metric_type": "heart_rate", "biometric_data": {"heart_rate": 62}}]}"#
            let batch = try JSONDecoder().decode(JSONValue.self, from: try await client.send(Self.request(.post, "/api/v1/health-data/", token: token, json: upload)).value)
            guard case .string(let id)? = batch["processing_id"] else { Issue.record("no processing_id"); return }
            func total() async throws -> JSONValue? {
                try JSONDecoder().decode(JSONValue.self, from: try await client.send(Self.request(.get, "/api/v1/health-data/?limit=10", token: token)).value)["pagination"]?["total_count"]
            }
            #expect(try await total() == .number(2))
            let deleted = try await client.send(Self.request(.delete, "/api/v1/health-data/\(id)", token: token))
            #expect(deleted.status == .ok)
            #expect(try await total() == .number(0))
            #expect(try await client.send(Self.request(.delete, "/api/v1/health-data/\(id)", token: token)).status == .notFound)
        }
    }

    @Test func aKeyedUploadIsReplayedWithItsLocationAndABadQueryIsA422AtTheQuery() async throws {
        try await withRawClient { client, _, token in
            let upload = #"{"user_id": "demo-user", "upload_source": "apple_health", "client_timestamp": "2025-06-15T08:30:00Z", "metrics": [{"metric_type": "heart_rate", "biometric_data": {"heart_rate": 61}}]}"#
            var keyed = Self.request(.post, "/api/v1/health-data/", token: token, json: upload)
            keyed.headers[HTTPField.Name("Idempotency-Key")!] = "upload-1"
            let first = try await client.send(keyed)
            let replay = try await client.send(keyed)
            #expect(first.status == .created)
            #expect(replay.status == .created)
            #expect(first.headers[.location]?.hasPrefix("/api/v1/health-data/processing/") == true)
            #expect(replay.headers[.location] == first.headers[.location], "the replay keeps the first answer's Location")
            #expect(replay.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect(replay.value == first.value)

            let badDate = try await client.send(Self.request(.get, "/api/v1/health-data/?start_date=yesterday", token: token))
            #expect(badDate.status == .unprocessableContent)
            let detail = try JSONDecoder().decode(JSONValue.self, from: badDate.value)["detail"]
            guard case .array(let errors)? = detail else { Issue.record("no validation list"); return }
            #expect(errors.first?["loc"] == .array([.string("query"), .string("start_date")]), "\(errors)")
            #expect(errors.first?["type"] != .string("json_invalid"))
        }
    }
}
