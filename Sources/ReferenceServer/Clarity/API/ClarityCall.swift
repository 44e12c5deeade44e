import Foundation
import HTTPTypes
import Synchronization

/// One call to a CLARITY operation as the reference server's implementation of the generated
/// `APIProtocol` (``ClarityService``) sees it: who is calling, what the request carried besides
/// the operation's documented input, and what the answer should carry besides its documented
/// output (a `Location`, a `Cache-Control`, validators for a conditional GET).
///
/// ``ClarityCallMiddleware``, a swift-openapi-runtime `ServerMiddleware`, makes one for every
/// request, binds it to ``current`` while the handler runs (a task-local value: the way the
/// runtime's middleware hands a handler what the generated input does not hold) and applies
/// ``answer`` to the response afterwards.
///
/// `Sendable` without `@unchecked`: what the handler adds to the answer sits in a `Mutex`.
final class ClarityCall: Sendable {
    /// The call the running handler serves; `nil` outside one.
    @TaskLocal static var current: ClarityCall?

    /// Who signed a call: the user of a valid access token.
    struct Caller: Sendable, Hashable {
        /// The user's id.
        let userId: String
        /// The access token that signed the request.
        let accessToken: String
    }

    /// What the handler asked to add to its answer.
    struct Answer: Sendable {
        /// Header fields added to the response.
        var fields: HTTPFields = [:]
        /// Set when a `200` answer may be revalidated: its `Cache-Control` and `Last-Modified`;
        /// the middleware adds an `ETag` made from the body and answers a matching conditional
        /// request with `304 Not Modified`.
        var cacheable: (cacheControl: String, lastModified: Date?)?
        /// A body the document's types cannot carry (an answer with undocumented content), which
        /// replaces the generated serializer's: the generated code writes an `.undocumented`
        /// output's status and nothing else.
        var undocumentedBody: (contentType: String, bytes: [UInt8])?
    }

    /// The request's head (method, path, header fields).
    let request: HTTPRequest
    /// The signed-in caller, on operations that take an access token and when one was sent.
    let caller: Caller?
    /// The request's body as collected (inflated, when it came gzipped); `nil` without one.
    /// Operations whose document shows no body still read one the service takes (refresh's
    /// `{"refresh_token": …}`).
    let body: ArraySlice<UInt8>?
    private let answerState = Mutex(Answer())

    init(request: HTTPRequest, caller: Caller?, body: ArraySlice<UInt8>?) {
        self.request = request
        self.caller = caller
        self.body = body
    }

    /// The body decoded as JSON of a type; `nil` when there is none.
    /// - Throws: ``APIError`` 422 `json_invalid` when it is not JSON of that shape.
    func decodedBody<Value: Decodable>(as type: Value.Type) throws -> Value? {
        guard let body, !body.isEmpty else { return nil }
        do {
            return try JSONDecoder().decode(Value.self, from: Data(body))
        } catch {
            throw APIError.requestInvalid("json_invalid", at: ["body"], "JSON decode error")
        }
    }

    /// What the handler added so far.
    var answer: Answer { answerState.withLock { $0 } }

    /// Adds a header field to the answer.
    func respond(_ name: HTTPField.Name, _ value: String) {
        answerState.withLock { $0.fields[name] = value }
    }

    /// Sends `bytes` as the answer's body with a content type, for an output the handler returns
    /// as `.undocumented(statusCode:_:)`.
    func respond(contentType: String, body bytes: [UInt8]) {
        answerState.withLock { $0.undocumentedBody = (contentType, bytes) }
    }

    /// Marks a `200` answer as cacheable with validators (see ``Answer/cacheable``).
    func cacheable(cacheControl: String, lastModified: Date? = nil) {
        answerState.withLock { $0.cacheable = (cacheControl, lastModified) }
    }

    /// The call the running handler serves.
    /// - Throws: ``APIError`` 500 when a handler runs outside ``ClarityCallMiddleware``, which
    ///   would be a wiring mistake.
    static func running() throws -> ClarityCall {
        guard let current else { throw APIError.internalFailure("a CLARITY handler ran outside its call") }
        return current
    }

    /// The signed-in user's id.
    /// - Throws: ``APIError`` 401 when the call was not signed (an operation the middleware
    ///   lets through without a token).
    static func userId() throws -> String {
        guard let caller = try running().caller else { throw APIError.unauthorized("Authentication required") }
        return caller.userId
    }
}
