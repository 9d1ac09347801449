import Foundation
import Testing
@testable import HTTPCaching

/// RFC 9111 §4.2.1 (freshness lifetime) and §4.2.2 (heuristic freshness).
@Suite("RFC 9111 §4.2.1 and §4.2.2 freshness lifetime")
struct FreshnessTests {
    func lifetime(_ stored: StoredResponse, rules: CacheRules = Fixture.privateCache) -> (Double, FreshnessSource) {
        let result = rules.freshnessLifetime(of: stored)
        return (result.seconds, result.source)
    }

    // MARK: §4.2.1 explicit

    @Test("§4.2.1 max-age gives the lifetime")
    func maxAge() {
        #expect(lifetime(Fixture.stored("Cache-Control: max-age=60")) == (60, .maxAge(60)))
    }

    @Test("§4.2.1 s-maxage overrides max-age in a shared cache")
    func sharedMaxAgeWins() {
        let stored = Fixture.stored("Cache-Control: max-age=60, s-maxage=300")
        #expect(lifetime(stored, rules: Fixture.sharedCache) == (300, .sharedMaxAge(300)))
    }

    @Test("§4.2.1 a private cache ignores s-maxage")
    func privateIgnoresSharedMaxAge() {
        #expect(lifetime(Fixture.stored("Cache-Control: max-age=60, s-maxage=300")) == (60, .maxAge(60)))
        #expect(lifetime(Fixture.stored("Cache-Control: s-maxage=300")).1 == .none)
    }

    @Test("§4.2.1 s-maxage overrides Expires in a shared cache")
    func sharedMaxAgeOverExpires() {
        let stored = Fixture.stored("Cache-Control: s-maxage=10", "Expires: \(Fixture.httpDate(3600))")
        #expect(lifetime(stored, rules: Fixture.sharedCache) == (10, .sharedMaxAge(10)))
    }

    @Test("§5.3 max-age overrides Expires")
    func maxAgeOverExpires() {
        #expect(lifetime(Fixture.stored("Cache-Control: max-age=60", "Expires: \(Fixture.httpDate(3600))")) == (60, .maxAge(60)))
        #expect(lifetime(Fixture.stored("Cache-Control: max-age=60", "Expires: 0")) == (60, .maxAge(60)))
    }

    @Test("§4.2.1 Expires minus Date gives the lifetime")
    func expiresMinusDate() {
        #expect(lifetime(Fixture.stored("Expires: \(Fixture.httpDate(3600))", received: 50, date: 0)) == (3600, .expires(3600)))
    }

    @Test("§4.2.1 Expires without Date is measured from the receipt time")
    func expiresWithoutDate() {
        #expect(lifetime(Fixture.stored("Expires: \(Fixture.httpDate(3600))", received: 100, date: nil)) == (3500, .expires(3500)))
    }

    @Test("§4.2.1 Expires earlier than Date gives lifetime zero")
    func expiresInThePast() {
        #expect(lifetime(Fixture.stored("Expires: \(Fixture.httpDate(-60))")) == (0, .expires(0)))
    }

    @Test("§5.3 an invalid Expires means already expired", arguments: ["0", "-1", "tomorrow", "Sun, 06 Nov 1994 08:49:37 UTC"])
    func invalidExpires(value: String) {
        #expect(lifetime(Fixture.stored("Expires: \(value)")) == (0, .invalid("invalid Expires \"\(value)\"")))
    }

    @Test("§5.3 a response with an invalid Expires is stale at once")
    func invalidExpiresIsStale() {
        let decision = Fixture.decide([Fixture.stored("Expires: 0", #"ETag: "v1""#)], at: 0)
        #expect(decision.summary == #"revalidate: invalid Expires "0""#)
    }

    @Test(
        "§4.2.1 invalid max-age makes the response stale",
        arguments: [("max-age=abc", #"max-age invalid value "abc""#), ("max-age=-1", #"max-age invalid value "-1""#), ("max-age=", #"max-age invalid value """#)])
    func invalidMaxAge(field: String, detail: String) {
        let stored = Fixture.stored("Cache-Control: \(field)", #"ETag: "v1""#)
        #expect(lifetime(stored) == (0, .invalid(detail)))
        #expect(Fixture.decide([stored], at: 0).summary == "revalidate: \(detail)")
    }

    @Test("§4.2.1 conflicting max-age values make the response stale")
    func conflictingMaxAge() {
        let stored = Fixture.stored("Cache-Control: max-age=60, max-age=120", #"ETag: "v1""#)
        #expect(lifetime(stored) == (0, .invalid("max-age conflicting values 60, 120")))
        guard case .revalidate(let revalidation) = Fixture.decide([stored], at: 0) else {
            Issue.record("a conflicting max-age must be revalidated")
            return
        }
        #expect(revalidation.reason == .invalidFreshness("max-age conflicting values 60, 120"))
    }

    @Test("§4.2.1 invalid max-age does not fall back to Expires")
    func invalidMaxAgeIgnoresExpires() {
        #expect(lifetime(Fixture.stored("Cache-Control: max-age=x", "Expires: \(Fixture.httpDate(3600))")).0 == 0)
    }

    @Test("§4.2.1 an invalid s-maxage makes the response stale in a shared cache")
    func invalidSharedMaxAge() {
        let stored = Fixture.stored("Cache-Control: s-maxage=x, max-age=60")
        #expect(lifetime(stored, rules: Fixture.sharedCache) == (0, .invalid(#"s-maxage invalid value "x""#)))
        #expect(lifetime(stored) == (60, .maxAge(60)))
    }

    @Test("§1.2.2 a huge max-age saturates at 2^31 seconds")
    func hugeMaxAge() {
        #expect(lifetime(Fixture.stored("Cache-Control: max-age=9999999999999")) == (2_147_483_648, .maxAge(2_147_483_648)))
    }

    // MARK: §4.2.2 heuristic

    @Test("§4.2.2 heuristic lifetime is 10% of the time since Last-Modified")
    func heuristicTenPercent() {
        let stored = Fixture.stored("Last-Modified: \(Fixture.httpDate(-5 * 86_400))")
        #expect(lifetime(stored) == (43_200, .heuristic(43_200)))
    }

    @Test("§4.2.2 heuristic lifetime is capped (one day by default)")
    func heuristicCap() {
        let stored = Fixture.stored("Last-Modified: \(Fixture.httpDate(-100 * 86_400))")
        #expect(lifetime(stored) == (86_400, .heuristic(86_400)))
    }

    @Test("§4.2.2 heuristic fraction and cap come from the configuration")
    func heuristicConfigured() {
        let rules = CacheRules(configuration: CacheRulesConfiguration(heuristicFraction: 0.2, heuristicLimit: 3600))
        #expect(lifetime(Fixture.stored("Last-Modified: \(Fixture.httpDate(-1000))"), rules: rules) == (200, .heuristic(200)))
        #expect(lifetime(Fixture.stored("Last-Modified: \(Fixture.httpDate(-86_400))"), rules: rules) == (3600, .heuristic(3600)))
    }

    @Test("§4.2.2 heuristics can be disabled by configuration")
    func heuristicDisabled() {
        let rules = CacheRules(configuration: CacheRulesConfiguration(heuristicFreshness: false))
        #expect(lifetime(Fixture.stored("Last-Modified: \(Fixture.httpDate(-86_400))"), rules: rules) == (0, .none))
    }

    @Test("§4.2.2 heuristics apply only to heuristically cacheable statuses", arguments: [(200, true), (301, true), (404, true), (302, false), (500, false)])
    func heuristicStatus(status: Int, heuristic: Bool) {
        let stored = Fixture.stored("Last-Modified: \(Fixture.httpDate(-1000))", status: status)
        let expected: (Double, FreshnessSource) = heuristic ? (100, .heuristic(100)) : (0, .none)
        #expect(lifetime(stored) == expected)
    }

    @Test("§4.2.2 public allows heuristics for any status")
    func heuristicPublic() {
        let stored = Fixture.stored("Cache-Control: public", "Last-Modified: \(Fixture.httpDate(-1000))", status: 302)
        #expect(lifetime(stored) == (100, .heuristic(100)))
    }

    @Test("§4.2.2 heuristics are not used when explicit freshness is present")
    func heuristicNotWithExplicit() {
        let stored = Fixture.stored("Expires: \(Fixture.httpDate(10))", "Last-Modified: \(Fixture.httpDate(-86_400))")
        #expect(lifetime(stored) == (10, .expires(10)))
    }

    @Test("§4.2.2 the heuristic measures from Date, or from receipt when Date is missing")
    func heuristicBase() {
        let stored = Fixture.stored("Last-Modified: \(Fixture.httpDate(-9000))", received: 1000, date: nil)
        #expect(lifetime(stored) == (1000, .heuristic(1000)))
    }

    @Test("§4.2.2 a Last-Modified later than Date gives no heuristic")
    func heuristicFutureLastModified() {
        #expect(lifetime(Fixture.stored("Last-Modified: \(Fixture.httpDate(60))")) == (0, .none))
    }

    @Test("§4.2.1 without any freshness information the lifetime is zero")
    func noInformation() {
        #expect(lifetime(Fixture.stored(#"ETag: "v1""#)) == (0, .none))
    }

    // MARK: The Freshness value

    @Test("§4.2 fresh while lifetime exceeds age; time to live and staleness follow")
    func freshnessValue() {
        let fresh = Freshness(lifetime: 60, age: 10, source: .maxAge(60))
        #expect(fresh.isFresh && fresh.timeToLive == 50 && fresh.staleness == 0)
        let stale = Freshness(lifetime: 60, age: 100, source: .maxAge(60))
        #expect(!stale.isFresh && stale.timeToLive == -40 && stale.staleness == 40)
    }

    @Test("§4.2 a response whose age equals its lifetime is stale")
    func ageEqualsLifetime() {
        let freshness = Fixture.privateCache.freshness(of: Fixture.stored("Cache-Control: max-age=60"), now: Fixture.at(60))
        #expect(freshness == Freshness(lifetime: 60, age: 60, source: .maxAge(60)))
        #expect(!freshness.isFresh)
    }

    @Test(
        "§4.2.1 the freshness source names itself in reasons",
        arguments: [
            (FreshnessSource.sharedMaxAge(300), "s-maxage=300"), (.maxAge(60), "max-age=60"),
            (.expires(3599.6), "Expires (3600s after Date)"), (.heuristic(8640.4), "heuristic 8640s (10% of time since Last-Modified)"),
            (.none, "no freshness information"), (.invalid("max-age invalid value \"x\""), "max-age invalid value \"x\""),
        ])
    func sourceText(source: FreshnessSource, text: String) {
        #expect(source.description == text)
    }
}
