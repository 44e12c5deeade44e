import Courier
@testable import CourierURLSession
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import Testing

/// How an `HTTPRequest` becomes the `URLRequest` a data task sends.
@Suite("URLSession request conversion")
struct URLSessionRequestConversionTests {
    @Test func everyFieldIsSentOnceWithTheValuesOfARepeatedNameJoined() throws {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .accept, value: "application/json"))
        fields.append(HTTPField(name: .cookie, value: "a=1"))
        fields.append(HTTPField(name: HTTPField.Name("x-trace")!, value: "one"))
        fields.append(HTTPField(name: .cookie, value: "b=2"))
        fields.append(HTTPField(name: HTTPField.Name("X-Trace")!, value: "two"))
        fields.append(HTTPField(name: .userAgent, value: "Courier-Tests"))
        let request = HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: "/radars", headerFields: fields)

        let urlRequest = try URLSessionTransport.makeURLRequest(request)

        #expect(urlRequest.allHTTPHeaderFields == [
            "Accept": "application/json",
            "Cookie": "a=1; b=2",
            "x-trace": "one, two",
            "User-Agent": "Courier-Tests",
        ])
        #expect(urlRequest.value(forHTTPHeaderField: "X-TRACE") == "one, two")
        #expect(urlRequest.httpMethod == "GET")
    }

    @Test func aMethodOtherThanGETIsSet() throws {
        let request = HTTPRequest(method: .patch, scheme: "http", authority: "127.0.0.1:8080", path: "/wellness/2026-11-26")
        let urlRequest = try URLSessionTransport.makeURLRequest(request)
        #expect(urlRequest.httpMethod == "PATCH")
        #expect(urlRequest.url?.absoluteString == "http://127.0.0.1:8080/wellness/2026-11-26")
        #expect(urlRequest.allHTTPHeaderFields?.isEmpty ?? true)
    }
}
