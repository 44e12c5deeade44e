/// The checks made after the last step, on what the origin saw (`GET /state/<uuid>`):
/// which requests reached it, conditional and expected request headers, the method, and
/// whether the client saw every response header the origin sent.
struct ServerStateCheck {
    /// The test's steps.
    let steps: [ConformanceStep]
    /// What the client got for each step, in order.
    let responses: [ReceivedResponse]
    /// What the origin saw, in order.
    let exchanges: [ObservedExchange]

    /// Headers not compared between what the origin sent and what the client got.
    private static let uncomparedHeaders: Set<String> = ["date"]

    /// Throws the first failed check.
    func verify() throws {
        var seen = 0
        for (index, step) in steps.enumerated() {
            let number = index + 1
            let isSetup = step.isSetup("expected_type")
            // The origin does not see a step served from the cache.
            if step.expectedType == .cached { continue }
            let exchange = exchanges.indices.contains(seen) ? exchanges[seen] : nil
            seen += 1
            if step.expectedType == .notCached {
                try CheckFailure.require(exchange?.requestNumber == number, setup: isSetup,
                                         "response \(number) comes from the cache (\(Self.describe(exchange?.requestNumber)) on the origin)")
            }
            if let validator = Self.validatingHeader(for: step.expectedType) {
                try CheckFailure.require(exchange != nil, setup: isSetup, "request \(number) was not sent to the origin")
                try CheckFailure.require(exchange?.requestHeaders[validator] != nil, setup: isSetup,
                                         "request \(number) has no \(validator) header")
            }
            try verifyRequestHeaders(step, number: number, exchange: exchange)
            if let exchange, responses.indices.contains(index) {
                try verifyResponseHeadersSeen(exchange, response: responses[index], number: number)
            }
            if let expectedMethod = step.expectedMethod {
                try CheckFailure.require(exchange?.requestMethod == expectedMethod, setup: step.isSetup("expected_method"),
                                         "request \(number) had method \(exchange?.requestMethod ?? "none"), not \(expectedMethod)")
            }
        }
    }

    private func verifyRequestHeaders(_ step: ConformanceStep, number: Int, exchange: ObservedExchange?) throws {
        let sent = exchange?.requestHeaders ?? [:]
        let presentSetup = step.isSetup("expected_request_headers")
        for expectation in step.expectedRequestHeaders {
            let value = sent[expectation.name.lowercased()]
            switch expectation {
            case .present(let name):
                try CheckFailure.require(value != nil, setup: presentSetup, "request \(number) has no \(name) header")
            case .equals(let name, let expected):
                try CheckFailure.require(value == expected, setup: presentSetup,
                                         "request \(number) header \(name) is \(value.map { "\"\($0)\"" } ?? "absent"), not \"\(expected)\"")
            }
        }
        let missingSetup = step.isSetup("expected_request_headers_missing")
        for expectation in step.expectedRequestHeadersMissing {
            let value = sent[expectation.name.lowercased()]
            switch expectation {
            case .present(let name):
                try CheckFailure.require(value == nil, setup: missingSetup, "request \(number) has a \(name) header")
            case .equals(let name, let unexpected):
                try CheckFailure.require(value != unexpected, setup: missingSetup, "request \(number) header \(name) is \"\(unexpected)\"")
            }
        }
    }

    /// Every header the origin sent and the client must see arrived unchanged.
    private func verifyResponseHeadersSeen(_ exchange: ObservedExchange, response: ReceivedResponse, number: Int) throws {
        for pair in exchange.responseHeaders where pair.count == 2 {
            let (name, sent) = (pair[0], pair[1])
            if Self.uncomparedHeaders.contains(name.lowercased()) { continue }
            let received = response.value(name)
            try CheckFailure.require(received == sent, setup: true,
                                     "response \(number) header \(name) is \(received.map { "\"\($0)\"" } ?? "absent"), not \"\(sent)\"")
        }
    }

    private static func validatingHeader(for type: ConformanceStep.ExpectedType?) -> String? {
        switch type {
        case .etagValidated: return "if-none-match"
        case .lastModifiedValidated: return "if-modified-since"
        default: return nil
        }
    }

    private static func describe(_ number: Int?) -> String {
        number.map { "request \($0)" } ?? "no request"
    }
}
