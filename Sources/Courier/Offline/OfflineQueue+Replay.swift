import Foundation
import HTTPTypes

/// How a stored write becomes a request again, for its replay.
extension OfflineQueue {
    /// The request a stored write replays as, with its idempotency key; throws when the stored URL is not absolute.
    static func httpRequest(for item: QueuedRequest) throws -> HTTPRequest {
        guard let components = URLComponents(string: item.url), let scheme = components.scheme, let host = components.host else {
            throw CourierError(code: .invalidRequest, message: "the queued URL is not absolute")
        }
        var fields = HTTPFields()
        for field in item.fields { if let name = HTTPField.Name(field.name) { fields.append(HTTPField(name: name, value: field.value)) } }
        fields[.idempotencyKey] = item.idempotencyKey
        let authority = components.port.map { "\(host):\($0)" } ?? host
        let path = (components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath) + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        return HTTPRequest(method: HTTPRequest.Method(item.method) ?? .post, scheme: scheme, authority: authority, path: path, headerFields: fields)
    }

    /// The context a replay runs under: the write's invalidations and personal-data flag, a
    /// 60 s timeout, and, in a client that signs for many accounts, the write's account.
    func context(for item: QueuedRequest) -> RequestContext {
        var options = RequestOptions(timeout: .seconds(60), invalidates: item.invalidates)
        options.bodyIsPersonalData = item.bodyIsPersonalData
        if deliversAsOwner { options.account = item.account }
        return RequestContext(endpoint: "offline.replay", options: options)
    }

    /// A short, body-free description of a replay's outcome, for logs and dead letters.
    static func statusText(_ outcome: QueueDecision.Outcome) -> String {
        switch outcome {
        case .answered(let status): "the server answered \(status)"
        case .failed(let code): "\(code)"
        }
    }
}
