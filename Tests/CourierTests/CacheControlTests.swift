import Courier
import Foundation
import HTTPTypes
import Testing

@Suite("Cache-Control and HTTP dates (pure)")
struct CacheControlTests {
    @Test func directivesParseWithOddSpacingCaseAndQuotes() {
        let control = CacheControl(["  Max-Age = 60 ,no-cache=\"Set-Cookie, X-Foo\",PRIVATE", "must-revalidate"])
        #expect(control.validSeconds("max-age") == 60)
        #expect(control.argument("no-cache") == "Set-Cookie, X-Foo")
        #expect(control.has("private"))
        #expect(control.mustRevalidate)
        #expect(!control.noStore)
    }

    @Test func quotedNumbersAreAcceptedAndTheFirstDuplicateWins() {
        #expect(CacheControl(["max-age=\"30\""]).validSeconds("max-age") == 30)
        #expect(CacheControl(["max-age=10, max-age=3600"]).validSeconds("max-age") == 10)
        #expect(CacheControl(["max-age=10", "max-age=3600"]).validSeconds("max-age") == 10)
    }

    @Test(arguments: ["max-age=abc", "max-age=-1", "max-age=1.5", "max-age=", "max-age"])
    func invalidNumbersAreInvalidNotZeroOrMissing(header: String) {
        #expect(CacheControl([header]).seconds("max-age") == .invalid)
    }

    @Test func hugeNumbersAreCappedAtTwoToTheThirtyOne() {
        #expect(CacheControl(["max-age=99999999999999999999"]).validSeconds("max-age") == Int(Int32.max))
    }

    @Test(arguments: [
        "Thu, 18 Aug 2050 02:01:18 UTC", "Thu, 18 Aug 2050 02:01:18 AEST", "Thu, 18 Aug 50 02:01:18 GMT",
        "Thu 18 Aug 2050 02:01:18 GMT", "Thu, 18  Aug  2050 02:01:18 GMT", "Thu, 18-Aug-2050 02:01:18 GMT",
        "Thu, 18 Aug 2050 02.01.18 GMT", "Thu, 18 Aug 2050 2:01:18 GMT", "0", "",
    ])
    func malformedHTTPDatesAreNotDates(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test func namesAreMatchedWithoutRegardToCase() {
        #expect(HTTPDate.parse("thu, 18 aug 2050 02:01:18 gmt").map(HTTPDate.format) == "Thu, 18 Aug 2050 02:01:18 GMT")
    }

    @Test func rfc850TwoDigitYearsAreAtMostFiftyYearsAhead() {
        let now = Date(timeIntervalSince1970: 1_795_000_000) // 2026
        #expect(HTTPDate.parse("Thursday, 18-Aug-50 02:01:18 GMT", now: now).map(HTTPDate.format) == "Thu, 18 Aug 2050 02:01:18 GMT")
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: now).map(HTTPDate.format) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("Sunday, 06-Nov-1994 08:49:37 GMT", now: now) == nil)
    }

    @Test func asctimeAcceptsASpacePaddedDay() {
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994").map(HTTPDate.format) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("Sun Nov 16 08:49:37 1994").map(HTTPDate.format) == "Wed, 16 Nov 1994 08:49:37 GMT")
    }

    @Test func formattingNamesTheRightWeekday() {
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 1_795_341_600)) == "Sun, 22 Nov 2026 10:00:00 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: -86_400)) == "Wed, 31 Dec 1969 00:00:00 GMT")
    }

    @Test func theIMFFixdateFastPathAgreesWithTheFormatter() {
        let samples = ["Sun, 06 Nov 1994 08:49:37 GMT", "Thu, 01 Jan 1970 00:00:00 GMT", "Sat, 29 Feb 2020 23:59:59 GMT", "Wed, 31 Dec 2031 12:00:00 GMT"]
        for sample in samples {
            let date = HTTPDate.parse(sample)
            #expect(date != nil)
            #expect(date.map(HTTPDate.format) == sample)
        }
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 25:49:37 GMT") == nil)
        #expect(HTTPDate.parse("0") == nil)
        #expect(HTTPDate.parse("Sun, 06 Foo 1994 08:49:37 GMT") == nil)
    }
}

@Suite("Freshness (pure)")
struct FreshnessTests {
    let received = Date(timeIntervalSince1970: 1_800_000_000)

    private func stored(_ fields: [(String, String)], status: Int = 200, requestedBefore: TimeInterval = 0) -> CachedResponse {
        CachedResponse(
            status: status, fields: fields.map { .init(name: $0.0, value: $0.1) }, body: Data(),
            requestDate: received.addingTimeInterval(-requestedBefore), responseDate: received
        )
    }

    private func http(_ date: Date) -> String { HTTPDate.format(date) }

    @Test func maxAgeSetsTheLifetimeAndResidentTimeAddsToTheAge() {
        let freshness = Freshness(of: stored([("Cache-Control", "max-age=100"), ("Date", http(received))]), now: received.addingTimeInterval(40))
        #expect(freshness.lifetime == 100)
        #expect(freshness.age == 40)
        #expect(freshness.isFresh)
        #expect(!Freshness(of: stored([("Cache-Control", "max-age=100")]), now: received.addingTimeInterval(100)).isFresh)
    }

    @Test func theAgeHeaderAndTheResponseDelayCount() {
        let entry = stored([("Cache-Control", "max-age=100"), ("Age", "30"), ("Date", http(received))], requestedBefore: 2)
        #expect(Freshness(of: entry, now: received).age == 32)
    }

    @Test func aDateInThePastMakesTheResponseOlder() {
        let entry = stored([("Cache-Control", "max-age=100"), ("Date", http(received.addingTimeInterval(-50)))])
        #expect(Freshness(of: entry, now: received).age == 50)
    }

    @Test func expiresIsMeasuredFromTheDateHeader() {
        let entry = stored([("Date", http(received)), ("Expires", http(received.addingTimeInterval(300)))])
        #expect(Freshness(of: entry, now: received).lifetime == 300)
        #expect(Freshness(of: stored([("Expires", "0")]), now: received).lifetime == 0, "an invalid Expires means already expired")
        #expect(Freshness(of: stored([("Cache-Control", "max-age=5"), ("Expires", http(received.addingTimeInterval(300)))]), now: received).lifetime == 5, "max-age wins over Expires")
    }

    @Test func anInvalidMaxAgeIsStale() {
        #expect(Freshness(of: stored([("Cache-Control", "max-age=soon"), ("Expires", http(received.addingTimeInterval(300)))]), now: received).lifetime == 0)
    }

    @Test func heuristicFreshnessIsATenthOfTheTimeSinceLastModifiedForCacheableStatusesOnly() {
        let fields = [("Date", http(received)), ("Last-Modified", http(received.addingTimeInterval(-1_000)))]
        let ok = Freshness(of: stored(fields), now: received)
        #expect(ok.lifetime == 100)
        #expect(ok.isHeuristic)
        #expect(Freshness(of: stored(fields, status: 201), now: received).lifetime == 0)
        #expect(Freshness(of: stored(fields, status: 404), now: received).lifetime == 100)
    }

    @Test func aTTLOverrideAppliesOnlyWithoutExplicitFreshness() {
        #expect(Freshness(of: stored([]), now: received, ttlOverride: .seconds(60)).lifetime == 60)
        #expect(Freshness(of: stored([("Cache-Control", "max-age=5")]), now: received, ttlOverride: .seconds(60)).lifetime == 5)
    }
}
