public import Courier
import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif
public import HTTPTypes

/// A ``Courier/Transport`` on `URLSession`: the default engine on Apple platforms.
///
/// The session is injected, so tests can register `URLProtocol` classes and apps can share
/// their configuration. Response bodies are read whole by URLSession before they are
/// handed on (streamed request bodies are gathered in memory first); use
/// `AsyncHTTPClientTransport` where bodies must stream.
///
/// The per-attempt deadline bounds the whole exchange (URLSession's own `timeoutInterval`
/// is only an idle timeout). Cancelling the calling task cancels the data task.
///
/// On Linux, swift-corelibs-foundation's URLSession is slower than AsyncHTTPClient and has
/// crashed under heavy concurrency; prefer `AsyncHTTPClientTransport` there. URLSession
/// follows redirects by its own rules.
public final class URLSessionTransport: Transport {
    /// The session that runs the data tasks.
    public let session: URLSession

    /// Makes a transport.
    /// - Parameter session: The session; an ephemeral one (no cookies or cache on disk) by default.
    public init(session: URLSession = URLSession(configuration: .ephemeral)) {
        self.session = session
    }

    /// Sends the request with a data task.
    public func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var urlRequest = try Self.makeURLRequest(request)
        if let body {
            if let data = body.bufferedData {
                urlRequest.httpBody = data
            } else {
                urlRequest.httpBody = try await body.collect(upTo: Int.max)
            }
        }
        let deadline = context.attemptDeadline
        if let deadline {
            let remaining = ContinuousClock.now.duration(to: deadline)
            urlRequest.timeoutInterval = max(0.001, Double(remaining.components.seconds) + Double(remaining.components.attoseconds) / 1e18)
        }
        let (data, urlResponse) = try await withDeadline(deadline) { [session, urlRequest] in
            try await DataTaskRunner.run(urlRequest, in: session)
        }
        return try Self.makeResponse(data: data, urlResponse: urlResponse, method: request.method)
    }

    // MARK: - Conversions

    static func makeURLRequest(_ request: HTTPRequest) throws -> URLRequest {
        guard let scheme = request.scheme, let authority = request.authority,
              let url = URL(string: "\(scheme)://\(authority)\(request.path ?? "/")") else {
            throw CourierError(code: .invalidRequest, message: "the request's target is not a valid URL")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        for field in request.headerFields {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name.rawName)
        }
        return urlRequest
    }

    static func makeResponse(data: Data, urlResponse: URLResponse, method: HTTPRequest.Method) throws -> (HTTPResponse, HTTPBody?) {
        guard let httpResponse = urlResponse as? HTTPURLResponse else {
            throw CourierError(code: .invalidResponse, message: "the response is not an HTTP response")
        }
        var fields = HTTPFields()
        for (key, value) in httpResponse.allHeaderFields {
            guard let key = key as? String, let name = HTTPField.Name(key) else {
                throw CourierError(code: .invalidResponse, message: "the response has an invalid header name: \(key)")
            }
            fields.append(HTTPField(name: name, value: "\(value)"))
        }
        let head = HTTPResponse(status: .init(code: httpResponse.statusCode), headerFields: fields)
        if method == .head || httpResponse.statusCode == 204 || httpResponse.statusCode == 304 {
            return (head, nil)
        }
        return (head, HTTPBody(data))
    }

    /// Runs `operation`, throwing ``Courier/CourierError/Code/timedOut`` if the deadline passes first.
    private func withDeadline<T: Sendable>(
        _ deadline: ContinuousClock.Instant?,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        guard let deadline else { return try await operation() }
        return try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(until: deadline, clock: .continuous)
                throw CourierError(code: .timedOut, message: "the request did not finish before its deadline")
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else {
                throw CourierError(code: .transportFailed, message: "the request produced no result")
            }
            return first
        }
    }
}
