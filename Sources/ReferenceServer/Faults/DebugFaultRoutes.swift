import Hummingbird

/// The HTTP face of fault injection and request counting, under `/debug`, without authentication:
///
/// - `POST /debug/faults` with a ``FaultInjectionRequest`` → 201 `{"path": …, "remaining": N}`
/// - `DELETE /debug/faults` → 204, every scripted fault removed
/// - `POST /debug/body-faults` with a ``BodyCutRequest`` → 201 `{"path": …, "remaining": N}`:
///   the next responses to the path close their connection partway through the body
/// - `DELETE /debug/body-faults` → 204, every scripted cut removed
/// - `GET /debug/stats?path=/api/radars&method=GET` → `{"count": N}` (`method` optional)
/// - `DELETE /debug/stats` → 204, every count back to zero
struct DebugFaultRoutes: Sendable {
    let faults: FaultInjector
    let bodyFaults: BodyFaultInjector
    let counter: RequestCounter

    /// The answer to a scripted fault.
    private struct Scripted: Encodable {
        let path: String
        let remaining: Int
    }

    /// Adds the routes to a group mounted at `/debug`.
    func register<Context: RequestContext>(on debug: RouterGroup<Context>) {
        debug.post("faults") { request, _ in
            let body = try await request.decodeJSONBody(as: FaultInjectionRequest.self)
            let path = try body.validatedPath()
            faults.inject(try body.validatedFault(), count: try body.validatedCount(), method: body.method, path: path)
            return try Response.json(Scripted(path: path, remaining: faults.remaining(path: path)), status: .created)
        }
        debug.delete("faults") { _, _ in
            faults.clear()
            return Response.bodiless(status: .noContent)
        }
        debug.post("body-faults") { request, _ in
            let body = try await request.decodeJSONBody(as: BodyCutRequest.self)
            let path = try body.validatedPath()
            bodyFaults.dropConnection(afterBodyBytes: try body.validatedByteCount(), count: try body.validatedCount(), path: path)
            return try Response.json(Scripted(path: path, remaining: bodyFaults.remaining(path: path)), status: .created)
        }
        debug.delete("body-faults") { _, _ in
            bodyFaults.clear()
            return Response.bodiless(status: .noContent)
        }
        debug.get("stats") { request, _ in
            let query = QueryItems(rawQuery: request.uri.query)
            guard let path = query.first("path"), !path.isEmpty else {
                throw APIError.validationFailed("path is required")
            }
            return try Response.json(["count": counter.count(method: query.first("method"), path: path)])
        }
        debug.delete("stats") { _, _ in
            counter.reset()
            return Response.bodiless(status: .noContent)
        }
    }
}
