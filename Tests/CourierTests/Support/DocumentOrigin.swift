import Courier
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// A loopback origin that answers every operation of an OpenAPI document exactly as the
/// document allows: the first 2xx status, and a body made from that response's schema by
/// ``OpenAPISchemaSampler`` (every property, or only the required ones). It checks each
/// request body against the operation's request schema and records what it found, so a test
/// can tell that what the client sent is what the service takes. Unknown paths are 404.
///
/// `Sendable` without `@unchecked`: what it records sits in a `Mutex`.
final class DocumentOrigin: Sendable {
    /// One request, as the origin matched and checked it.
    struct Exchange: Sendable {
        /// The method.
        let method: String
        /// The path template it matched, such as `/api/v1/insights/{insight_id}`, or the raw path when none did.
        let template: String
        /// What in the request body broke the request schema; empty when it conformed.
        let violations: [String]
        /// The `Authorization` field, if any.
        let authorization: String?
    }

    private let sampler: OpenAPISchemaSampler
    private let completeness: OpenAPISchemaSampler.Completeness
    private let recorded = Mutex<[Exchange]>([])

    /// The requests answered so far, in order.
    var exchanges: [Exchange] { recorded.withLock { $0 } }

    private init(sampler: OpenAPISchemaSampler, completeness: OpenAPISchemaSampler.Completeness) {
        self.sampler = sampler
        self.completeness = completeness
    }

    /// Runs `body` with an origin listening on an ephemeral loopback port, stopped afterwards.
    static func withRunning<T: Sendable>(
        _ sampler: OpenAPISchemaSampler,
        _ completeness: OpenAPISchemaSampler.Completeness,
        _ body: (DocumentOrigin, URL) async throws -> T
    ) async throws -> T {
        let origin = DocumentOrigin(sampler: sampler, completeness: completeness)
        let router = Router()
        router.add(middleware: Answering(origin: origin))
        return try await LoopbackApplication.withRunning(router, label: "courier.document-origin") { url in try await body(origin, url) }
    }

    /// The answer to one request.
    fileprivate func answer(method: String, path: String, body: Data, authorization: String?) -> (status: Int, json: String?) {
        guard let (template, operation) = match(method: method, path: path), let success = sampler.success(of: operation) else {
            recorded.withLock { $0.append(Exchange(method: method, template: path, violations: [], authorization: authorization)) }
            return (404, #"{"detail": "Not Found"}"#)
        }
        var violations: [String] = []
        if let schema = sampler.requestSchema(of: operation) {
            if let value = try? JSONDecoder().decode(JSONValue.self, from: body) {
                violations = sampler.violations(of: value, against: schema)
            } else {
                violations = ["$: the body is not JSON"]
            }
        }
        recorded.withLock { $0.append(Exchange(method: method, template: template, violations: violations, authorization: authorization)) }
        return (success.status, success.schema.map { sampler.sample($0, completeness).jsonText })
    }

    /// The document's operation whose template matches `path` segment by segment (a `{name}`
    /// segment matches any one segment; the trailing slash counts, as FastAPI's routes do).
    private func match(method: String, path: String) -> (String, [String: JSONValue])? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        let candidates = sampler.operations.filter { $0.method == method.uppercased() }.compactMap { candidate -> (String, Int)? in
            let pattern = candidate.template.split(separator: "/", omittingEmptySubsequences: false)
            guard pattern.count == segments.count else { return nil }
            var literal = 0
            for (expected, actual) in zip(pattern, segments) {
                if expected.hasPrefix("{") && expected.hasSuffix("}") {
                    guard !actual.isEmpty else { return nil }
                } else {
                    guard expected == actual else { return nil }
                    literal += 1
                }
            }
            return (candidate.template, literal)
        }
        // The most literal match wins: /insights/status over /insights/{insight_id}.
        guard let best = candidates.max(by: { $0.1 < $1.1 }), let operation = sampler.operation(method, best.0) else { return nil }
        return (best.0, operation)
    }

    private struct Answering: RouterMiddleware {
        typealias Context = BasicRequestContext
        let origin: DocumentOrigin

        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            let buffer = try await request.body.collect(upTo: 1 << 20)
            let (status, json) = origin.answer(
                method: request.method.rawValue, path: request.uri.path, body: Data(buffer.readableBytesView),
                authorization: request.headers[.authorization]
            )
            var headers: HTTPFields = [:]
            if json != nil { headers[.contentType] = "application/json" }
            return Response(
                status: HTTPResponse.Status(code: status), headers: headers,
                body: ResponseBody(byteBuffer: ByteBuffer(string: json ?? ""))
            )
        }
    }
}
