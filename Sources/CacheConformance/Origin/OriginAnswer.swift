import Foundation

/// What the origin answers to one `/test/<uuid>` request, decided from the configured step
/// alone: a pure value, built before anything is recorded or written.
struct OriginAnswer {
    /// What the answer is built from.
    struct Input {
        /// The test's uuid.
        var uuid: String
        /// The steps configured for it.
        var steps: [ConformanceStep]
        /// The index of the step to answer.
        var stepIndex: Int
        /// The client's `Req-Num`, if it sent one.
        var clientRequestNumber: Int?
        /// The request's header fields, lowercased names, repeated fields joined.
        var requestHeaders: [String: String]
        /// The origin's clock, in milliseconds since 1970.
        var now: Int64
        /// The absolute URL of `/test/<uuid>` on this origin.
        var baseURL: String
        /// How the previous step's validators were last sent (see ``OriginLedger``).
        var previousValidator: (String) -> String?
    }

    /// The status code.
    var status: Int
    /// The reason phrase.
    var reason: String
    /// The headers, in order, before `Server-Request-Count` and `Request-Numbers`.
    var headers: [(name: String, value: String)]
    /// The step's own headers after rendering: what a later validation compares against.
    var stepHeaders: [(name: String, value: String)]
    /// The headers the client must see, as `[name, value]` pairs (repeated names joined).
    var mustBeSeen: [[String]]
    /// The body (empty for 204 and 304).
    var body: Data
    /// Whether to drop the connection instead of answering.
    var disconnect: Bool

    /// Statuses that never carry a body.
    static let bodylessStatuses: Set<Int> = [204, 304]

    init(_ input: Input) {
        let step = input.steps[input.stepIndex]
        (status, reason) = Self.status(for: step, input: input)
        disconnect = step.disconnect

        let nowText = String(input.now)
        headers = [("Server-Base-Url", input.baseURL)]
        if let number = input.clientRequestNumber { headers.append(("Client-Request-Count", String(number))) }
        headers.append(("Server-Now", nowText))

        stepHeaders = step.responseHeaders.map { header in
            (header.name, SuiteDates.wireValue(of: header, in: step, serverNow: input.now, baseURL: input.baseURL))
        }
        headers += stepHeaders
        mustBeSeen = Self.visibleHeaders(step: step, sent: stepHeaders)

        let named = Set(headers.map { $0.name.lowercased() })
        if !named.contains("date") { headers.append(("Date", SuiteDates.render(serverNow: input.now, offset: 0))) }
        if !named.contains("content-type") { headers.append(("Content-Type", "text/plain")) }

        var body = Data()
        if !Self.bodylessStatuses.contains(status) {
            let text = step.responseBody.flatMap { $0.isEmpty ? nil : $0 } ?? input.uuid
            body = Data(text.utf8)
            let declared = stepHeaders.last { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) }
            if let declared, declared >= 0 {
                // The step declares the length: send exactly that many bytes (cut, or padded
                // with spaces) so that the message stays framed.
                body = body.prefix(declared) + Data(repeating: UInt8(ascii: " "), count: max(0, declared - body.count))
            } else {
                headers.append(("Content-Length", String(body.count)))
            }
        }
        self.body = body
    }

    /// 304 when the step expects validation and the conditional header matches the previous
    /// step's validator exactly, 999 when it expects validation and it does not; otherwise the
    /// step's `response_status`.
    private static func status(for step: ConformanceStep, input: Input) -> (Int, String) {
        guard let expected = step.expectedType, expected.isValidation, input.stepIndex > 0 else {
            let status = step.responseStatus ?? SuiteStatus(code: 200, reason: "OK")
            return (status.code, status.reason)
        }
        if let lastModified = input.previousValidator("Last-Modified"),
           input.requestHeaders["if-modified-since"] == lastModified {
            return (304, "Not Modified")
        }
        if let etag = input.previousValidator("ETag"), input.requestHeaders["if-none-match"] == etag {
            return (304, "Not Modified")
        }
        return (999, "304 Not Generated")
    }

    /// The step's headers that are not marked "need not be seen", each with every value sent
    /// under its name.
    private static func visibleHeaders(step: ConformanceStep, sent: [(name: String, value: String)]) -> [[String]] {
        var order: [String] = []
        var spelled: [String: String] = [:]
        for header in step.responseHeaders where header.mustBeSeen {
            let key = header.lowercasedName
            if spelled[key] == nil {
                order.append(key)
                spelled[key] = header.name
            }
        }
        return order.map { key in
            let values = sent.filter { $0.name.lowercased() == key }.map(\.value)
            return [spelled[key] ?? key, values.joined(separator: ", ")]
        }
    }
}
