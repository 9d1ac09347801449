import Foundation
import HTTPTypes
import Testing
@testable import HTTPCaching

/// RFC 9110 §5.6.7: every rule that reads a response's dates reads a two-digit RFC 850 year
/// against its own "now" — `01-Jan-73` is 2073 for a response received in 2026, not 1973.
@Suite("RFC 9110 §5.6.7 two-digit years in responses")
struct TwoDigitYearTests {
    /// `Thu, 01 Jan 2026 00:00:00 GMT`: when the responses arrive.
    static let now = Date(timeIntervalSince1970: 1_767_225_600)
    /// `Sun, 01 Jan 2073 00:00:00 GMT`.
    static let year2073 = Date(timeIntervalSince1970: 3_250_454_400)
    /// 2073-01-01 in RFC 850 form.
    static let rfc850 = "Sunday, 01-Jan-73 00:00:00 GMT"
    /// 2073-01-01 as an IMF-fixdate.
    static let imfFixdate = "Sun, 01 Jan 2073 00:00:00 GMT"

    let rules = CacheRules()

    /// A response to `GET /articles/1` received at ``now``; a `Date` of ``now`` is added unless
    /// `lines` has one.
    func stored(_ lines: String...) -> StoredResponse {
        var all = lines
        if !lines.contains(where: { $0.hasPrefix("Date:") }) { all.append("Date: \(HTTPDate.format(Self.now))") }
        let response = HTTPResponse(status: .ok, headerFields: Fixture.fields(all))
        return rules.storedResponse(key: Fixture.key, request: Fixture.get(), response: response, requestTime: Self.now, responseTime: Self.now)
    }

    @Test("a stored response's Date, Expires and Last-Modified are read against when it was received")
    func storedFields() {
        let response = stored("Date: \(Self.rfc850)", "Expires: \(Self.rfc850)", "Last-Modified: \(Self.rfc850)")
        #expect(response.date == Self.year2073)
        #expect(response.expires == .date(Self.year2073))
        #expect(response.lastModified == Self.year2073)
    }

    @Test("freshness: Expires 01-Jan-73 received in 2026 is fresh for 47 years, and is served")
    func freshness() {
        let response = stored("Expires: \(Self.rfc850)")
        let freshness = rules.freshness(of: response, now: Self.now.addingTimeInterval(3600))
        #expect(freshness.source == .expires(Self.year2073.timeIntervalSince(Self.now)))
        #expect(freshness.isFresh)
        let decision = rules.decide(
            request: Fixture.get(), policy: .useProtocolCachePolicy, candidates: [response], now: Self.now.addingTimeInterval(3600))
        #expect(decision.kind == "fresh")
    }

    @Test("age: a Date of 01-Jan-73 is not read as 53 years ago")
    func age() {
        let response = stored("Date: \(Self.rfc850)", "Cache-Control: max-age=600")
        #expect(rules.currentAge(of: response, now: Self.now.addingTimeInterval(10)) == 10)
        #expect(rules.freshness(of: response, now: Self.now.addingTimeInterval(10)).isFresh)
    }

    @Test("storability: a response without a validator, fresh until 01-Jan-73, is worth storing")
    func storability() {
        let response = Fixture.response(200, "Date: \(HTTPDate.format(Self.now))", "Expires: \(Self.rfc850)")
        #expect(rules.storability(request: Fixture.get(), response: response, now: Self.now) == .storable)
    }

    @Test("validation: a 304's Last-Modified in RFC 850 form selects the stored response with that instant")
    func notModifiedSelection() {
        let storedIMF = stored("Cache-Control: no-cache", "Last-Modified: \(Self.imfFixdate)")
        let notModified850 = Fixture.response(304, "Last-Modified: \(Self.rfc850)")
        #expect(rules.responsesToFreshen(notModified: notModified850, candidates: [storedIMF], validated: nil, now: Self.now) == [0])
        let stored850 = stored("Cache-Control: no-cache", "Last-Modified: \(Self.rfc850)")
        let notModifiedIMF = Fixture.response(304, "Last-Modified: \(Self.imfFixdate)")
        #expect(rules.responsesToFreshen(notModified: notModifiedIMF, candidates: [stored850], validated: nil, now: Self.now) == [0])
        #expect(rules.conditionalHeaders(validating: 0, among: [stored850]).ifModifiedSinceValue == Self.imfFixdate)
    }
}
