/// One entry of a test's `requests`: what the client sends, what the origin answers, and
/// what the client should see. Field names follow the suite's JSON (see the README of the
/// conformance data).
public struct ConformanceStep: Sendable, Decodable {
    /// What a step expects of where its response came from.
    public enum ExpectedType: String, Sendable, Hashable, Decodable {
        /// The origin did not see this request.
        case cached
        /// The origin saw it.
        case notCached = "not_cached"
        /// The origin saw a conditional request with `If-None-Match`.
        case etagValidated = "etag_validated"
        /// The origin saw a conditional request with `If-Modified-Since`.
        case lastModifiedValidated = "lm_validated"

        /// Whether the origin should have received a conditional request.
        public var isValidation: Bool { self == .etagValidated || self == .lastModifiedValidated }
    }

    /// How `expected_status` is written: absent, `null`, or a code.
    public enum StatusExpectation: Sendable, Hashable {
        /// Absent: the status must be `response_status` (or 200).
        case origin
        /// `null`: any status.
        case any
        /// A code the response must have.
        case code(Int)
    }

    // What the client sends.
    /// `request_method`; GET when absent.
    public var requestMethod: String?
    /// `request_headers`.
    public var requestHeaders: [SuiteHeader]
    /// `request_body`.
    public var requestBody: String?
    /// `magic_ims`: render an integer `If-Modified-Since` against the previous `Server-Now`.
    public var magicIMS: Bool
    /// `cache`: the fetch cache mode (`no-cache`, `only-if-cached`, …).
    public var cacheMode: String?
    /// `redirect`: `manual` means redirects are not followed.
    public var redirect: String?
    /// `filename`: appended to the test URL's path.
    public var filename: String?
    /// `query_arg`: the test URL's query.
    public var queryArgument: String?
    /// `pause_after`: wait three seconds before the next step.
    public var pauseAfter: Bool

    // What the origin answers.
    /// `response_status`: code and reason phrase; 200 OK when absent.
    public var responseStatus: SuiteStatus?
    /// `response_headers`.
    public var responseHeaders: [SuiteHeader]
    /// `response_body`; the test's uuid when absent or null.
    public var responseBody: String?
    /// `response_pause`: seconds the origin waits before answering.
    public var responsePause: Double?
    /// `disconnect`: the origin drops the connection instead of answering.
    public var disconnect: Bool
    /// `rfc850date`: lowercased names of date headers rendered in the RFC 850 form.
    public var rfc850Dates: [String]
    /// `magic_locations`: `Location` and `Content-Location` are made absolute.
    public var magicLocations: Bool

    // What the client should see.
    /// `expected_type`.
    public var expectedType: ExpectedType?
    /// `expected_status`.
    public var expectedStatus: StatusExpectation
    /// `expected_method`: the method the origin should have seen.
    public var expectedMethod: String?
    /// `expected_request_headers`.
    public var expectedRequestHeaders: [RequestHeaderExpectation]
    /// `expected_request_headers_missing`.
    public var expectedRequestHeadersMissing: [RequestHeaderExpectation]
    /// `expected_response_headers`.
    public var expectedResponseHeaders: [ResponseHeaderExpectation]
    /// `expected_response_headers_missing`.
    public var expectedResponseHeadersMissing: [MissingResponseHeaderExpectation]
    /// `expected_response_text`: `.some(nil)` when written as `null` (the body is not checked).
    public var expectedResponseText: String??
    /// `check_body`: `false` turns the body check off.
    public var checkBody: Bool
    /// `setup`: every check of this step is a setup check.
    public var setup: Bool
    /// `setup_tests`: the checks of this step that are setup checks.
    public var setupTests: [String]

    /// The ``ConformanceStep`` with every field at its default.
    public init() {
        requestHeaders = []
        magicIMS = false
        pauseAfter = false
        responseHeaders = []
        disconnect = false
        rfc850Dates = []
        magicLocations = false
        expectedStatus = .origin
        expectedRequestHeaders = []
        expectedRequestHeadersMissing = []
        expectedResponseHeaders = []
        expectedResponseHeadersMissing = []
        checkBody = true
        setup = false
        setupTests = []
    }

    /// Whether a failure of the named check (`expected_type`, `expected_status`, …) is a
    /// setup failure rather than a conformance failure.
    /// - Parameter check: The expectation's field name.
    public func isSetup(_ check: String) -> Bool {
        setup || setupTests.contains(check)
    }

    /// The status the origin answers with before validation: `response_status`, or 200.
    public var originStatus: Int { responseStatus?.code ?? 200 }
}

/// A `[code, reason]` pair of `response_status`.
public struct SuiteStatus: Sendable, Hashable, Decodable {
    /// The status code.
    public var code: Int
    /// The reason phrase.
    public var reason: String

    /// Makes a status.
    /// - Parameters:
    ///   - code: The status code.
    ///   - reason: The reason phrase.
    public init(code: Int, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// Reads the pair; the reason phrase may be left out.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when the first element is not a number.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        code = try container.decode(Int.self)
        reason = try container.decodeIfPresent(String.self) ?? ""
    }
}
