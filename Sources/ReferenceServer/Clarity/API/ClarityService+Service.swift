import ClarityOpenAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The service's own routes, answered as the real service answers them where a real deployment
/// serves them:
///
/// - `GET /`, `GET /health` and `GET /api/v1/` (open): what the service is, its health, and the
///   API's sections;
/// - `GET /api/v1/metrics/metrics` (signed): Prometheus text, not JSON, as the service sends it
///   (the document declares no content for it);
/// - `GET /api/v1/ws/chat/stats` and `GET /api/v1/ws/chat/users/{room_id}` (open): the chat's
///   connections, which on the reference server are none;
/// - `GET /api/v1/test/ping` and `GET /api/v1/test/check-middleware`: whether a credential
///   came and whom it signs in. Unlike the real service, which echoes the first 50 characters of
///   the `Authorization` field, they show only its scheme: no token goes back out;
/// - the debug routes, which a real deployment leaves out (the service mounts them only in
///   development): FastAPI then answers `404 {"detail": "Not Found"}`, and so does the reference
///   server unless its debug routes are on (``ReferenceServerConfiguration/enablesDebugRoutes``).
extension ClarityService {
    func rootGet(_ input: Operations.RootGet.Input) async throws -> Operations.RootGet.Output {
        .ok(.init(body: .json(ClarityWire.object([
            "name": "CLARITY Digital Twin Platform (Courier reference server)", "version": "0.2.0", "status": "operational",
            "service": "clarity-backend", "environment": "reference", "total_endpoints": ClarityOperationRules.operationCount, "api_docs": "/docs",
        ]))))
    }

    func healthCheckHealthGet(_ input: Operations.HealthCheckHealthGet.Input) async throws -> Operations.HealthCheckHealthGet.Output {
        try ClarityCall.running().respond(.cacheControl, "no-store")
        return .ok(.init(body: .json(ClarityWire.object([
            "status": "healthy", "service": "clarity-backend", "environment": "reference", "version": "0.2.0",
            "uptime_seconds": Int(Date().timeIntervalSince(startedAt)),
            "features": ["cognito_auth": false, "api_key_auth": true, "dynamodb": false, "gemini_insights": false] as [String: (any Sendable)?],
        ]))))
    }

    func apiInfoApiV1Get(_ input: Operations.ApiInfoApiV1Get.Input) async throws -> Operations.ApiInfoApiV1Get.Output {
        .ok(.init(body: .json(ClarityWire.object([
            "version": "1.0.0", "description": "CLARITY Digital Twin Platform API (Courier reference server)",
            "endpoints": [
                "auth": "/api/v1/auth", "health_data": "/api/v1/health-data", "healthkit": "/api/v1/healthkit",
                "pat_analysis": "/api/v1/pat", "insights": "/api/v1/insights", "metrics": "/api/v1/metrics", "websocket": "/api/v1/ws",
            ] as [String: (any Sendable)?],
        ]))))
    }

    func getMetricsApiV1MetricsMetricsGet(_ input: Operations.GetMetricsApiV1MetricsMetricsGet.Input) async throws -> Operations.GetMetricsApiV1MetricsMetricsGet.Output {
        _ = try ClarityCall.userId()
        let samples: [(name: String, help: String, type: String, value: Int)] = [
            ("clarity_uptime_seconds", "Seconds since the server started.", "gauge", Int(Date().timeIntervalSince(startedAt))),
            ("clarity_health_metrics_stored", "Health metrics held.", "gauge", await health.metricCount),
            ("clarity_pat_analyses_completed_total", "PAT analyses completed.", "counter", await clarity.completedAnalyses),
            ("clarity_insights_generated_total", "Insights written.", "counter", await clarity.insightCount),
        ]
        let text = samples.map { "# HELP \($0.name) \($0.help)\n# TYPE \($0.name) \($0.type)\n\($0.name) \($0.value)\n" }.joined()
        // The document declares this answer without content; the service sends Prometheus text.
        let call = try ClarityCall.running()
        call.respond(.cacheControl, "no-cache, no-store, must-revalidate")
        call.respond(contentType: "text/plain; version=0.0.4; charset=utf-8", body: Array(text.utf8))
        return .undocumented(statusCode: 200, .init())
    }

    func getChatStatsApiV1WsChatStatsGet(_ input: Operations.GetChatStatsApiV1WsChatStatsGet.Input) async throws -> Operations.GetChatStatsApiV1WsChatStatsGet.Output {
        .ok(.init(body: .json(ClarityWire.object(["total_users": 0, "total_connections": 0, "rooms": [String: (any Sendable)?]()]))))
    }

    func getRoomUsersApiV1WsChatUsersRoomIdGet(_ input: Operations.GetRoomUsersApiV1WsChatUsersRoomIdGet.Input) async throws -> Operations.GetRoomUsersApiV1WsChatUsersRoomIdGet.Output {
        .ok(.init(body: .json(ClarityWire.object(["room_id": input.path.roomId, "users": [String]()]))))
    }

    func simplePingApiV1TestPingGet(_ input: Operations.SimplePingApiV1TestPingGet.Input) async throws -> Operations.SimplePingApiV1TestPingGet.Output {
        let authorization = try ClarityCall.running().request.headerFields[.authorization]
        return .ok(.init(body: .json(ClarityWire.object([
            "message": "PONG! Backend is alive!", "path": "/api/v1/test/ping",
            "has_auth_header": authorization != nil, "auth_header_preview": Self.schemeOnly(authorization),
        ]))))
    }

    func checkMiddlewareApiV1TestCheckMiddlewareGet(_ input: Operations.CheckMiddlewareApiV1TestCheckMiddlewareGet.Input) async throws -> Operations.CheckMiddlewareApiV1TestCheckMiddlewareGet.Output {
        let call = try ClarityCall.running()
        let user: [String: (any Sendable)?]? = call.caller.map { ["exists": true, "type": "user", "user_id": $0.userId] }
        return .ok(.init(body: .json(ClarityWire.object([
            "middleware_ran": true, "user_info": user, "auth_header": Self.schemeOnly(call.request.headerFields[.authorization]),
        ]))))
    }

    func captureRawRequestApiV1DebugDebugCaptureRawRequestPost(
        _ input: Operations.CaptureRawRequestApiV1DebugDebugCaptureRawRequestPost.Input
    ) async throws -> Operations.CaptureRawRequestApiV1DebugDebugCaptureRawRequestPost.Output {
        guard enablesDebugRoutes else {
            try Self.answerAsAnAbsentRoute()
            return .undocumented(statusCode: 404, .init())
        }
        let call = try ClarityCall.running()
        let body = Array(call.body ?? [])
        let text = String(validating: body, as: UTF8.self)
        let json = text.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8), options: [.fragmentsAllowed]) }
        let headers = Dictionary(call.request.headerFields.map { field in
            (field.name.canonicalName, Self.isCredential(field.name) ? Self.schemeOnly(field.value) : field.value)
        }, uniquingKeysWith: { first, _ in first })
        return .ok(.init(body: .json(ClarityWire.object([
            "method": call.request.method.rawValue, "url": call.request.path ?? "/", "headers": headers,
            "body_info": [
                "length_bytes": body.count, "raw_bytes": body.prefix(4_096).map { String(format: "%02x", $0) }.joined(),
                "decoded_string": text, "decoded_success": text != nil, "json_valid": json != nil,
            ] as [String: (any Sendable)?],
        ]))))
    }

    func echoLoginRequestApiV1DebugDebugEchoLoginPost(
        _ input: Operations.EchoLoginRequestApiV1DebugDebugEchoLoginPost.Input
    ) async throws -> Operations.EchoLoginRequestApiV1DebugDebugEchoLoginPost.Output {
        guard enablesDebugRoutes else {
            try Self.answerAsAnAbsentRoute()
            return .undocumented(statusCode: 404, .init())
        }
        // Fixed strings that sign nothing, as the service's development build answers.
        let tokens: [String: (any Sendable)?] = [
            "access_token": "debug_token", "refresh_token": "debug_refresh", "token_type": "bearer", "expires_in": 3_600, "scope": "full_access",
        ]
        return .ok(.init(body: .json(try OpenAPIValueContainer(unvalidatedValue: tokens))))
    }

    /// Sets FastAPI's body for a route the deployment does not have, `{"detail":"Not Found"}`,
    /// for a 404 the handler returns.
    private static func answerAsAnAbsentRoute() throws {
        try ClarityCall.running().respond(contentType: "application/json", body: Array(#"{"detail":"Not Found"}"#.utf8))
    }

    /// Whether a header field may carry a credential: `Authorization`, `Proxy-Authorization`,
    /// cookies, and any field whose name says key, token, secret or session.
    private static func isCredential(_ name: HTTPField.Name) -> Bool {
        let lowered = name.canonicalName.lowercased()
        return ["auth", "cookie", "key", "token", "secret", "session"].contains { lowered.contains($0) }
    }

    /// An `Authorization` value with its credential left out: `Bearer …`, or `NO AUTH HEADER`.
    private static func schemeOnly(_ authorization: String?) -> String {
        guard let authorization else { return "NO AUTH HEADER" }
        return (authorization.split(separator: " ").first.map(String.init) ?? "") + " …"
    }
}
