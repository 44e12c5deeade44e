import Courier
import Foundation
import Testing

@Suite("Dates in JSON and HTTP headers")
struct CodingTests {
    @Test(arguments: [
        ("2026-11-22T10:00:00Z", 1_795_341_600.0),
        ("2026-11-22T10:00:00.250Z", 1_795_341_600.25),
        ("2026-11-22T11:00:00+01:00", 1_795_341_600.0),
        ("2026-11-22T11:00:00.5+01:00", 1_795_341_600.5),
    ])
    func iso8601DatesDecodeWithAndWithoutFractionalSeconds(text: String, seconds: Double) throws {
        struct Box: Decodable { var at: Date }
        let box = try JSONCoding.makeDecoder().decode(Box.self, from: Data(#"{"at":"\#(text)"}"#.utf8))
        #expect(abs(box.at.timeIntervalSince1970 - seconds) < 0.001)
    }

    @Test func notADateIsADecodingError() {
        struct Box: Decodable { var at: Date }
        #expect(throws: DecodingError.self) {
            try JSONCoding.makeDecoder().decode(Box.self, from: Data(#"{"at":"yesterday"}"#.utf8))
        }
    }

    @Test func encoderWritesUTCWithMilliseconds() throws {
        let data = try JSONCoding.makeEncoder().encode([Date(timeIntervalSince1970: 0.125)])
        #expect(String(decoding: data, as: UTF8.self) == #"["1970-01-01T00:00:00.125Z"]"#)
    }

    @Test(arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"])
    func httpDatesParseInAllThreeForms(text: String) {
        #expect(HTTPDate.parse(text) == Date(timeIntervalSince1970: 784_111_777))
    }

    @Test func retryAfterReadsSecondsAndDates() {
        let now = Date(timeIntervalSince1970: 784_111_777)
        #expect(RetryAfter.parse("120", now: now) == .seconds(120))
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:50:37 GMT", now: now) == .seconds(60))
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:00:00 GMT", now: now) == .zero)
        #expect(RetryAfter.parse("-1", now: now) == nil)
        #expect(RetryAfter.parse("soon", now: now) == nil)
    }
}
