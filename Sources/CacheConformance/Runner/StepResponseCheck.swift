/// The checks on what the client got for one step, in the suite's order: retries, where the
/// response came from, status, headers, body.
struct StepResponseCheck {
    /// The step.
    let step: ConformanceStep
    /// Its 1-based number (`Req-Num`).
    let number: Int
    /// The test's uuid (the default body).
    let uuid: String
    /// The request method sent.
    let method: String

    /// Throws the first failed check.
    func verify(_ response: ReceivedResponse) throws {
        try verifyNoRetry(response)
        try verifyType(response)
        try verifyStatus(response)
        try verifyHeaders(response)
        try verifyMissingHeaders(response)
        try verifyBody(response)
    }

    /// A repeated number in `Request-Numbers` means the client sent a request twice.
    private func verifyNoRetry(_ response: ReceivedResponse) throws {
        guard let numbers = response.value("Request-Numbers")?.split(separator: " ") else { return }
        try CheckFailure.require(Set(numbers).count == numbers.count, setup: true, "retry: the origin saw Request-Numbers \(numbers.joined(separator: " "))")
    }

    private func verifyType(_ response: ReceivedResponse) throws {
        let isSetup = step.isSetup("expected_type")
        let count = response.serverRequestCount
        switch step.expectedType {
        case .cached:
            // A 304 without the origin's header is the cache's own answer.
            if response.status == 304 && count == nil { return }
            try CheckFailure.require(count.map { $0 < number } ?? false, setup: isSetup, "response \(number) does not come from the cache")
        case .notCached:
            try CheckFailure.require(count == number, setup: isSetup, "response \(number) comes from the cache")
        case .etagValidated, .lastModifiedValidated, nil:
            return
        }
    }

    private func verifyStatus(_ response: ReceivedResponse) throws {
        switch step.expectedStatus {
        case .any:
            return
        case .code(let expected):
            try CheckFailure.require(response.status == expected, setup: step.isSetup("expected_status"),
                                     "response \(number) status is \(response.status), not \(expected)")
        case .origin:
            if let status = step.responseStatus {
                try CheckFailure.require(response.status == status.code, setup: true,
                                         "response \(number) status is \(response.status), not \(status.code)")
            } else if response.status == 999 {
                throw CheckFailure(isSetup: step.isSetup("expected_type"), message: "request \(number) should have been conditional, but it was not")
            } else {
                try CheckFailure.require(response.status == 200, setup: true, "response \(number) status is \(response.status), not 200")
            }
        }
    }

    private func verifyHeaders(_ response: ReceivedResponse) throws {
        let isSetup = step.isSetup("expected_response_headers")
        for expectation in step.expectedResponseHeaders {
            switch expectation {
            case .present(let name):
                try CheckFailure.require(response.has(name), setup: isSetup, "response \(number) has no \(name) header")
            case .equals(let name, let value):
                let expected = SuiteDates.wireValue(
                    of: SuiteHeader(name: name, value: value), in: step,
                    serverNow: response.serverNow, baseURL: response.value("Server-Base-Url")
                )
                let actual = response.value(name)
                try CheckFailure.require(actual == expected, setup: isSetup,
                                         "response \(number) header \(name) is \(Self.quoted(actual)), not \"\(expected)\"")
            case .sameAs(let name, let other):
                try CheckFailure.require(response.has(name), setup: isSetup, "response \(number) has no \(name) header")
                let actual = response.value(name)
                let expected = response.value(other)
                try CheckFailure.require(actual == expected, setup: isSetup,
                                         "response \(number) header \(name) is \(Self.quoted(actual)), should match \(other) (\(Self.quoted(expected)))")
            case .greaterThan(let name, let bound):
                try CheckFailure.require(response.has(name), setup: isSetup, "response \(number) has no \(name) header")
                let actual = response.value(name)
                let number = actual.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
                try CheckFailure.require(number.map { $0 > bound } ?? false, setup: isSetup,
                                         "response \(self.number) header \(name) is \(Self.quoted(actual)), should be bigger than \(bound)")
            }
        }
    }

    private func verifyMissingHeaders(_ response: ReceivedResponse) throws {
        let isSetup = step.isSetup("expected_response_headers_missing")
        for expectation in step.expectedResponseHeadersMissing {
            switch expectation {
            case .absent(let name):
                try CheckFailure.require(!response.has(name), setup: isSetup,
                                         "response \(number) has unexpected header \(name): \(Self.quoted(response.value(name)))")
            case .lacksValue(let name, let value):
                let actual = response.value(name) ?? ""
                try CheckFailure.require(!actual.contains(value), setup: isSetup,
                                         "response \(number) header \(name) still has value \"\(actual)\"")
            }
        }
    }

    private func verifyBody(_ response: ReceivedResponse) throws {
        guard step.checkBody else { return }
        let text = response.text
        if let expectedText = step.expectedResponseText {
            guard let expectedText else { return }
            try CheckFailure.require(text == expectedText, setup: step.isSetup("expected_response_text"),
                                     "response \(number) body is \"\(text)\", not \"\(expectedText)\"")
        } else if let body = step.responseBody {
            try CheckFailure.require(text == body, setup: true, "response \(number) body is \"\(text)\", not \"\(body)\"")
        } else if !OriginAnswer.bodylessStatuses.contains(response.status) && method != "HEAD" {
            try CheckFailure.require(text == uuid, setup: true, "response \(number) body is \"\(text)\", not the test's uuid")
        }
    }

    private static func quoted(_ value: String?) -> String {
        value.map { "\"\($0)\"" } ?? "absent"
    }
}
