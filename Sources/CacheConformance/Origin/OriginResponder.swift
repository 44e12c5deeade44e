import Foundation
import HTTPTypes
import HummingbirdCore
import NIOCore

/// Answers the suite's origin protocol: `PUT /config/<uuid>`, any method on
/// `/test/<uuid>[/<filename>]`, and `GET /state/<uuid>`.
///
/// It writes responses itself, on HummingbirdCore's HTTP/1 server rather than an
/// `Application`, because an `Application` replaces every response's `Date` header, and
/// the suite's `Date` values are part of what it tests.
struct OriginResponder: Sendable {
    let ledger: OriginLedger
    /// The tests' own times, when a runner keeps them; the wall clock for the rest.
    let timeline: VirtualTimeline?

    func respond(to request: Request, writer: consuming ResponseWriter, channel: any Channel) async throws {
        let segments = request.uri.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard segments.count >= 2 else {
            try await writer.write(response: Self.head(404, "Not Found"), body: Self.text("not found\n"))
            return
        }
        let uuid = segments[1]
        switch (segments[0], request.method) {
        case ("config", .put):
            try await configure(uuid, request: request, writer: writer)
        case ("state", .get):
            try await state(uuid, writer: writer)
        case ("test", _):
            try await answerTest(uuid, request: request, writer: writer, channel: channel)
        default:
            try await writer.write(response: Self.head(404, "Not Found"), body: Self.text("not found\n"))
        }
    }

    private func configure(_ uuid: String, request: Request, writer: consuming ResponseWriter) async throws {
        var request = request
        let buffer = try await request.collectBody(upTo: 16 << 20)
        let steps: [ConformanceStep]
        do {
            steps = try JSONDecoder().decode([ConformanceStep].self, from: Data(buffer.readableBytesView))
        } catch {
            try await writer.write(response: Self.head(400, "Bad Request"), body: Self.text("bad configuration: \(error)\n"))
            return
        }
        ledger.configure(uuid, steps: steps)
        try await writer.write(response: Self.head(201, "Created", [("Content-Length", "0")]), body: ResponseBody())
    }

    private func state(_ uuid: String, writer: consuming ResponseWriter) async throws {
        guard let exchanges = ledger.exchanges(for: uuid) else {
            try await writer.write(response: Self.head(404, "Not Found"), body: Self.text("no state for \(uuid)\n"))
            return
        }
        let json = try JSONEncoder().encode(exchanges)
        let head = Self.head(200, "OK", [("Content-Type", "application/json"), ("Content-Length", String(json.count))])
        try await writer.write(response: head, body: ResponseBody(byteBuffer: ByteBuffer(bytes: json)))
    }

    private func answerTest(_ uuid: String, request: Request, writer: consuming ResponseWriter, channel: any Channel) async throws {
        guard let configuration = ledger.configuration(for: uuid) else {
            try await writer.write(response: Self.head(409, "Conflict"), body: Self.text("no configuration for \(uuid)\n"))
            return
        }
        let requestHeaders = Self.lowercasedFields(of: request.head)
        let clientNumber = requestHeaders["req-num"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let index = (clientNumber ?? configuration.seen + 1) - 1
        guard configuration.steps.indices.contains(index) else {
            let message = "no step \(index + 1) configured for \(uuid) (there are \(configuration.steps.count))\n"
            try await writer.write(response: Self.head(409, "Conflict"), body: Self.text(message))
            return
        }
        if let pause = configuration.steps[index].responsePause, pause > 0,
           timeline?.advance(uuid, by: .seconds(pause)) != true {
            try await Task.sleep(for: .seconds(pause))
        }

        let authority = request.head.authority ?? "127.0.0.1"
        let answer = OriginAnswer(OriginAnswer.Input(
            uuid: uuid,
            steps: configuration.steps,
            stepIndex: index,
            clientRequestNumber: clientNumber,
            requestHeaders: requestHeaders,
            now: Int64(((timeline?.date(for: uuid) ?? Date()).timeIntervalSince1970 * 1_000).rounded(.down)),
            baseURL: "http://\(authority)/test/\(uuid)",
            previousValidator: { [ledger] name in ledger.sentValue(of: name, step: index - 1, uuid: uuid) }
        ))
        let exchange = ObservedExchange(
            requestNumber: clientNumber,
            requestMethod: request.method.rawValue,
            requestHeaders: requestHeaders,
            responseHeaders: answer.mustBeSeen
        )
        let (count, numbers) = ledger.record(exchange, sentHeaders: answer.stepHeaders, step: index, uuid: uuid)
        if answer.disconnect {
            try? await channel.close()
            return
        }
        var headers = answer.headers
        headers.insert(("Server-Request-Count", String(count)), at: 1)
        headers.append(("Request-Numbers", numbers.map { $0.map(String.init) ?? "NaN" }.joined(separator: " ")))
        let body = answer.body.isEmpty ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body))
        try await writer.write(response: Self.head(answer.status, answer.reason, headers), body: body)
    }

    // MARK: - Helpers

    /// The request's fields as the suite's state reports them: lowercased names, repeated
    /// fields joined with `", "`, and `host` (which HTTP/1 parsing moves into the authority).
    static func lowercasedFields(of head: HTTPRequest) -> [String: String] {
        var fields: [String: String] = [:]
        if let authority = head.authority { fields["host"] = authority }
        for field in head.headerFields {
            let name = field.name.canonicalName
            fields[name] = fields[name].map { "\($0), \(field.value)" } ?? field.value
        }
        return fields
    }

    private static func head(_ status: Int, _ reason: String, _ headers: [(name: String, value: String)] = []) -> HTTPResponse {
        var fields = HTTPFields()
        for (name, value) in headers {
            guard let fieldName = HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: fieldName, value: value))
        }
        return HTTPResponse(status: .init(code: status, reasonPhrase: reason), headerFields: fields)
    }

    private static func text(_ message: String) -> ResponseBody {
        ResponseBody(byteBuffer: ByteBuffer(string: message))
    }
}
