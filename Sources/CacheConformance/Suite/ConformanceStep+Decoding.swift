extension ConformanceStep {
    enum CodingKeys: String, CodingKey {
        case requestMethod = "request_method"
        case requestHeaders = "request_headers"
        case requestBody = "request_body"
        case magicIMS = "magic_ims"
        case cacheMode = "cache"
        case redirect
        case filename
        case queryArgument = "query_arg"
        case pauseAfter = "pause_after"
        case responseStatus = "response_status"
        case responseHeaders = "response_headers"
        case responseBody = "response_body"
        case responsePause = "response_pause"
        case disconnect
        case rfc850Dates = "rfc850date"
        case magicLocations = "magic_locations"
        case expectedType = "expected_type"
        case expectedStatus = "expected_status"
        case expectedMethod = "expected_method"
        case expectedRequestHeaders = "expected_request_headers"
        case expectedRequestHeadersMissing = "expected_request_headers_missing"
        case expectedResponseHeaders = "expected_response_headers"
        case expectedResponseHeadersMissing = "expected_response_headers_missing"
        case expectedResponseText = "expected_response_text"
        case checkBody = "check_body"
        case setup
        case setupTests = "setup_tests"
    }

    /// Reads a step from the suite's JSON; absent fields take their defaults, and `null` is
    /// kept apart from absent where the suite gives it a meaning (`expected_status`,
    /// `expected_response_text`).
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when a field has the wrong shape.
    public init(from decoder: any Decoder) throws {
        self.init()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        requestMethod = try container.decodeIfPresent(String.self, forKey: .requestMethod)
        requestHeaders = try container.decodeIfPresent([SuiteHeader].self, forKey: .requestHeaders) ?? []
        requestBody = try container.decodeIfPresent(String.self, forKey: .requestBody)
        magicIMS = try container.decodeIfPresent(Bool.self, forKey: .magicIMS) ?? false
        cacheMode = try container.decodeIfPresent(String.self, forKey: .cacheMode)
        redirect = try container.decodeIfPresent(String.self, forKey: .redirect)
        filename = try container.decodeIfPresent(String.self, forKey: .filename)
        queryArgument = try container.decodeIfPresent(String.self, forKey: .queryArgument)
        pauseAfter = try container.decodeIfPresent(Bool.self, forKey: .pauseAfter) ?? false

        responseStatus = try container.decodeIfPresent(SuiteStatus.self, forKey: .responseStatus)
        responseHeaders = try container.decodeIfPresent([SuiteHeader].self, forKey: .responseHeaders) ?? []
        responseBody = try container.decodeIfPresent(String.self, forKey: .responseBody)
        responsePause = try container.decodeIfPresent(Double.self, forKey: .responsePause)
        disconnect = try container.decodeIfPresent(Bool.self, forKey: .disconnect) ?? false
        rfc850Dates = (try container.decodeIfPresent([String].self, forKey: .rfc850Dates) ?? []).map { $0.lowercased() }
        magicLocations = try container.decodeIfPresent(Bool.self, forKey: .magicLocations) ?? false

        expectedType = try container.decodeIfPresent(ExpectedType.self, forKey: .expectedType)
        if container.contains(.expectedStatus) {
            expectedStatus = try container.decodeNil(forKey: .expectedStatus)
                ? .any
                : .code(try container.decode(Int.self, forKey: .expectedStatus))
        }
        expectedMethod = try container.decodeIfPresent(String.self, forKey: .expectedMethod)
        expectedRequestHeaders = try container.decodeIfPresent([RequestHeaderExpectation].self, forKey: .expectedRequestHeaders) ?? []
        expectedRequestHeadersMissing = try container.decodeIfPresent(
            [RequestHeaderExpectation].self, forKey: .expectedRequestHeadersMissing
        ) ?? []
        expectedResponseHeaders = try container.decodeIfPresent([ResponseHeaderExpectation].self, forKey: .expectedResponseHeaders) ?? []
        expectedResponseHeadersMissing = try container.decodeIfPresent(
            [MissingResponseHeaderExpectation].self, forKey: .expectedResponseHeadersMissing
        ) ?? []
        if container.contains(.expectedResponseText) {
            expectedResponseText = .some(try container.decodeIfPresent(String.self, forKey: .expectedResponseText))
        }
        checkBody = try container.decodeIfPresent(Bool.self, forKey: .checkBody) ?? true
        setup = try container.decodeIfPresent(Bool.self, forKey: .setup) ?? false
        setupTests = try container.decodeIfPresent([String].self, forKey: .setupTests) ?? []
    }
}
