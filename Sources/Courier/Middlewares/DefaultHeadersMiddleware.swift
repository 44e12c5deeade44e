public import HTTPTypes

/// Adds the headers every call should carry, unless the request already sets them:
/// `Accept`, `User-Agent`, and `X-Request-ID` (the call's ``RequestContext/requestID``).
///
/// Part of the default application middleware.
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
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: RequestContext,
        next: Next
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        // Appending is cheaper than the setter, which looks for fields to replace; the
        // checks before it already know there are none.
        if request.headerFields[.accept] == nil { request.headerFields.append(HTTPField(name: .accept, value: accept)) }
        if request.headerFields[.userAgent] == nil { request.headerFields.append(HTTPField(name: .userAgent, value: userAgent)) }
        if sendsRequestID && request.headerFields[.requestID] == nil {
            request.headerFields.append(HTTPField(name: .requestID, value: context.requestID))
        }
        for field in extraFields where request.headerFields[field.name] == nil {
            request.headerFields.append(field)
        }
        return try await next(request, body, context)
    }
}
