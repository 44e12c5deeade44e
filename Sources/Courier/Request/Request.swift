public import Foundation
public import HTTPTypes

/// A typed description of one API call: what to send, and what comes back.
///
/// `Response` is the type the body decodes to: any `Decodable` (as JSON), `Data` or
/// `String` (the raw body), or `Void` (the body is ignored; 204 and empty bodies are fine).
/// A request is a value; define endpoints as functions that return one.
///
/// ```swift
/// enum Users {
///     static func get(id: String) -> Request<User> {
///         Request(path: "/users/\(id)")
///     }
///     static func create(_ user: NewUser) -> Request<User> {
///         Request(method: .post, path: "/users", body: .json(user))
///     }
/// }
/// let user = try await client.value(for: Users.get(id: "42"))
/// ```
///
/// ## The path
/// `path` is joined to the client's base URL (keeping the base URL's own path). An absolute
/// URL is used as it is. A path may carry its own query (`/slow?ms=200`): it is kept as
/// written and ``query`` items are appended after it. A fragment (`#…`) or a malformed
/// percent escape is rejected with ``CourierError/Code/invalidRequest``, never silently
/// re-encoded into a different resource.
public struct Request<Response>: Sendable {
    /// The HTTP method.
    public var method: HTTPRequest.Method
    /// The path, relative to the client's base URL, or an absolute URL.
    public var path: String
    /// Query items, percent-encoded when the request is sent.
    public var query: [URLQueryItem]
    /// Header fields sent with this request, on top of the client's defaults.
    public var headers: HTTPFields
    /// The body, if any.
    public var body: RequestBody?
    /// Settings for the chain's stages.
    public var options: RequestOptions
    /// A stable name for metrics, such as `radar.list`. Unnamed requests share the label
    /// `unnamed`, so that ids in paths never become metric labels.
    public var name: String?
    /// The encoder for this request's body; `nil` uses the client's.
    public var encoder: JSONEncoder?
    /// The decoder for this request's response; `nil` uses the client's.
    public var decoder: JSONDecoder?

    /// Makes a request.
    /// - Parameters:
    ///   - method: The HTTP method; GET by default.
    ///   - path: The path or absolute URL.
    ///   - query: Query items.
    ///   - headers: Extra header fields.
    ///   - body: The body.
    ///   - options: Per-request settings.
    ///   - name: A name for logs and metrics.
    public init(
        method: HTTPRequest.Method = .get,
        path: String,
        query: [URLQueryItem] = [],
        headers: HTTPFields = [:],
        body: RequestBody? = nil,
        options: RequestOptions = RequestOptions(),
        name: String? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.options = options
        self.name = name
    }

    /// The label used in metrics: ``name``, or `unnamed`.
    public var endpointName: String {
        name ?? RequestContext.unnamedEndpoint
    }
}

extension Request {
    /// Returns a copy with a per-attempt timeout.
    /// - Parameter timeout: The longest one attempt may take.
    public func timeout(_ timeout: Duration) -> Request {
        var copy = self
        copy.options.timeout = timeout
        return copy
    }

    /// Returns a copy with one more header field.
    /// - Parameters:
    ///   - name: The field's name.
    ///   - value: Its value.
    public func header(_ name: HTTPField.Name, _ value: String) -> Request {
        var copy = self
        copy.headers.append(HTTPField(name: name, value: value))
        return copy
    }

    /// Returns a copy whose response decodes to another type, keeping everything else.
    /// - Parameter type: The new response type.
    public func decoding<Other>(_ type: Other.Type) -> Request<Other> {
        var other = Request<Other>(
            method: method, path: path, query: query, headers: headers,
            body: body, options: options, name: name
        )
        other.encoder = encoder
        other.decoder = decoder
        return other
    }
}
