import Foundation
import HTTPTypes

/// What the client got for one step: status, header fields and body.
struct ReceivedResponse: Sendable {
    var status: Int
    var headers: HTTPFields
    var body: Data

    /// Every value of a field (case-insensitive name) joined with `", "`, as a fetch client
    /// reports repeated fields; `nil` when absent.
    func value(_ name: String) -> String? {
        guard let fieldName = HTTPField.Name(name) else { return nil }
        let values = headers[values: fieldName]
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// Whether the field is present.
    func has(_ name: String) -> Bool {
        value(name) != nil
    }

    /// The origin's `Server-Request-Count`: how many requests it had seen for the test when it
    /// produced this response.
    var serverRequestCount: Int? {
        value("Server-Request-Count").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// The origin's clock when it produced this response (`Server-Now`, milliseconds).
    var serverNow: Int64? {
        value("Server-Now").flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// The body as text (invalid UTF-8 replaced).
    var text: String {
        String(decoding: body, as: UTF8.self)
    }
}
