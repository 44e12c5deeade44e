import Courier
import Foundation
import HTTPTypes

/// Builds the Courier request for one step: method, path `/test/<uuid>[/<filename>][?<query>]`,
/// the step's headers (with `magic_ims` rendered against the previous response's
/// `Server-Now`), `Test-ID`, `Req-Num`, the body, and the cache policy closest to the step's
/// fetch `cache` mode.
struct StepRequest {
    /// Why a step cannot be turned into a request.
    struct InvalidStep: Error, CustomStringConvertible {
        let description: String
    }

    let testID: String
    let uuid: String
    let step: ConformanceStep
    /// The 1-based step number.
    let number: Int
    /// The previous step's response, if any.
    let previous: ReceivedResponse?

    /// The method sent.
    var method: String { step.requestMethod ?? "GET" }

    /// The path and query, relative to the origin.
    var path: String {
        var path = "/test/\(uuid)"
        if let filename = step.filename { path += "/\(filename)" }
        if let query = step.queryArgument { path += "?\(query)" }
        return path
    }

    /// The request.
    /// - Throws: ``InvalidStep`` for a method, header or cache mode Courier cannot send.
    func make() throws -> Request<Data> {
        guard let method = HTTPRequest.Method(method) else { throw InvalidStep(description: "invalid method \(self.method)") }
        var fields = HTTPFields()
        for header in step.requestHeaders {
            guard let name = HTTPField.Name(header.name) else { throw InvalidStep(description: "invalid header name \(header.name)") }
            fields.append(HTTPField(name: name, value: value(of: header)))
        }
        fields.append(HTTPField(name: Self.testIDField, value: testID))
        fields.append(HTTPField(name: Self.requestNumberField, value: String(number)))

        var request = Request<Data>(method: method, path: path, headers: fields)
        if let body = step.requestBody {
            request.body = .data(Data(body.utf8), contentType: "text/plain;charset=UTF-8")
        }
        if let mode = step.cacheMode {
            guard let fetchMode = FetchCacheMode(rawValue: mode) else { throw InvalidStep(description: "unknown cache mode \(mode)") }
            request.options.cachePolicy = fetchMode.cachePolicy
        }
        return request
    }

    /// A request header's value: with `magic_ims`, an integer `If-Modified-Since` is a date
    /// offset from the previous response's `Server-Now`.
    private func value(of header: SuiteHeader) -> String {
        guard step.magicIMS, header.lowercasedName == "if-modified-since" else { return header.value.literal }
        return SuiteDates.wireValue(of: header, in: step, serverNow: previous?.serverNow, baseURL: nil)
    }

    static let testIDField = HTTPField.Name("Test-ID")!
    static let requestNumberField = HTTPField.Name("Req-Num")!
}
