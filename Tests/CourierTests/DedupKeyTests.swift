@testable import Courier
import HTTPTypes
import Testing

@Suite("Dedup keys")
struct DedupKeyTests {
    private func request(
        authority: String = "api.example.com",
        path: String = "/n?page=1",
        _ fields: [(HTTPField.Name, String)]
    ) -> HTTPRequest {
        var headerFields = HTTPFields()
        for (name, value) in fields { headerFields.append(HTTPField(name: name, value: value)) }
        return HTTPRequest(method: .get, scheme: "https", authority: authority, path: path, headerFields: headerFields)
    }

    @Test func fieldsInAnotherOrderMakeTheSameKeyWithTheSameHash() {
        let first = DedupKey(request([(.accept, "application/json"), (.acceptLanguage, "fr")]), user: "")
        let reordered = DedupKey(request([(.acceptLanguage, "fr"), (.accept, "application/json")]), user: "")
        #expect(first == reordered)
        #expect(first.hashValue == reordered.hashValue)
    }

    @Test func theRequestIDAndTheAuthoritysCaseDoNotMatter() {
        let first = DedupKey(request(authority: "API.example.com", [(.accept, "a"), (.requestID, "one")]), user: "")
        let second = DedupKey(request([(.requestID, "two"), (.accept, "a")]), user: "")
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
    }

    @Test func anotherValuePathUserOrFieldCountMakesAnotherKey() {
        let base = DedupKey(request([(.accept, "a"), (.acceptLanguage, "fr")]), user: "")
        #expect(base != DedupKey(request([(.accept, "a"), (.acceptLanguage, "de")]), user: ""))
        #expect(base != DedupKey(request(path: "/n?page=2", [(.accept, "a"), (.acceptLanguage, "fr")]), user: ""))
        #expect(base != DedupKey(request([(.accept, "a"), (.acceptLanguage, "fr")]), user: "alice"))
        #expect(base != DedupKey(request([(.accept, "a"), (.acceptLanguage, "fr"), (.accept, "a")]), user: ""))
    }

    @Test func aRepeatedFieldMustBeRepeatedAsOftenOnBothSides() {
        let twice = DedupKey(request([(.accept, "a"), (.accept, "a"), (.acceptLanguage, "fr")]), user: "")
        let other = DedupKey(request([(.accept, "a"), (.acceptLanguage, "fr"), (.acceptLanguage, "fr")]), user: "")
        #expect(twice != other)
    }
}
