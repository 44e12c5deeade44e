public import HTTPTypes

/// Adds the headers every call should carry, unless the request already sets them:
/// `Accept`, `User-Agent`, and `X-Request-ID` (the call's ``RequestContext/requestID``).
///
/// Part of the default application middleware. An app that identifies itself to its backend
/// (the apps' documents send their platform and version on every call) replaces the default
/// one, keeping it first:
///
/// ```swift
/// var configuration = ClientConfiguration(baseURL: url)
/// configuration.middleware[0] = DefaultHeadersMiddleware(
///     userAgent: "Radar/2.3 (iOS 18)",
///     extraFields: [HTTPField.Name("X-Platform")!: "iOS", HTTPField.Name("X-App-Version")!: "2.3.0"]
/// )
/// ```
public struct DefaultHeadersMiddleware: Middleware {
    /// The `Accept` value.
    public var accept: String
    /// The `User-Agent` value.
    public var userAgent: String
    /// Whether to send `X-Request-ID`.
    public var sendsRequestID: Bool
    /// Further fields added to every request that does not set them.
    public var extraFields: HTTPFields

    /// The `User-Agent` sent unless another is configured.
    public static let defaultUserAgent = "Courier/0.1"

    /// Makes the middleware.
    /// - Parameters:
    ///   - accept: The `Accept` value; JSON by default.
    ///   - userAgent: The `User-Agent` value.
    ///   - sendsRequestID: Whether to send `X-Request-ID`.
    ///   - extraFields: Further fields for every request.
    public init(
        accept: String = "application/json",
        userAgent: String = DefaultHeadersMiddleware.defaultUserAgent,
        sendsRequestID: Bool = true,
        extraFields: HTTPFields = [:]
    ) {
        self.accept = accept
        self.userAgent = userAgent
        self.sendsRequestID = sendsRequestID
        self.extraFields = extraFields
    }

    /// Adds the missing fields and passes the request on.
    ///
    /// When this middleware is the first of a client's application middleware, the client
    /// adds its fields while it prepares the call, with ``addMissingFields(to:requestID:)``,
    /// instead of running it as a link of the chain: only the call's span starts before it, so the request
    /// every later middleware sees is the same, and the call saves a link and a copy of its
    /// fields.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: Next
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        addMissingFields(to: &request.headerFields, requestID: context.requestID)
        return try await next(request, body, context)
    }

    /// The most fields ``addMissingFields(to:requestID:)`` adds, for a caller that reserves room
    /// for them and its own in one step.
    var maximumAddedFieldCount: Int { 3 + extraFields.count }

    /// Adds this middleware's fields that `fields` does not already have.
    /// - Parameters:
    ///   - fields: The request's fields.
    ///   - requestID: The call's id, sent as `X-Request-ID` if ``sendsRequestID`` is set.
    public func addMissingFields(to fields: inout HTTPFields, requestID: String) {
        // `contains` finds a name without building its value (the string subscript joins
        // every value), and appending skips the setter's search for fields to replace.
        // Reserving first makes the one copy of shared storage that appending would make,
        // with room for every field this may add.
        fields.reserveCapacity(fields.count + maximumAddedFieldCount)
        if !fields.contains(.accept) { fields.append(HTTPField(name: .accept, value: accept)) }
        if !fields.contains(.userAgent) { fields.append(HTTPField(name: .userAgent, value: userAgent)) }
        if sendsRequestID && !fields.contains(.requestID) {
            fields.append(HTTPField(name: .requestID, value: requestID))
        }
        for field in extraFields where !fields.contains(field.name) {
            fields.append(field)
        }
    }
}
