import Foundation
import HTTPTypes
import Testing
@testable import HTTPCaching

/// The two departures from RFC 9111 a cache can be configured with (a CDN's "minimum TTL" and
/// "ignore no-cache"), which `cachescope replay --what-if` simulates.
@Suite("Configured departures: minimum TTL and ignoring a response's no-cache")
struct ConfiguredDeparturesTests {
    static let minimumHour = CacheRules(configuration: CacheRulesConfiguration(minimumFreshness: 3600))
    static let ignoringNoCache = CacheRules(configuration: CacheRulesConfiguration(ignoresResponseNoCache: true))

    @Test("a minimum TTL raises a shorter lifetime and says so; a longer one is kept")
    func minimumRaises() {
        let short = Self.minimumHour.freshnessLifetime(of: Fixture.stored("Cache-Control: max-age=10"))
        #expect(short.seconds == 3600 && short.source == .minimum(3600, over: .maxAge(10)))
        #expect(short.source.description == "minimum TTL 3600s (over max-age=10)")
        let long = Self.minimumHour.freshnessLifetime(of: Fixture.stored("Cache-Control: max-age=86400"))
        #expect(long.seconds == 86_400 && long.source == .maxAge(86_400))
        #expect(Fixture.privateCache.freshnessLifetime(of: Fixture.stored("Cache-Control: max-age=10")).seconds == 10, "off by default")
    }

    @Test("with a minimum TTL a response past its max-age is still fresh; without, it is revalidated")
    func minimumKeepsFresh() {
        let stored = Fixture.stored("Cache-Control: max-age=10", #"ETag: "v1""#)
        #expect(Fixture.decide([stored], at: 60, rules: Self.minimumHour).kind == "fresh")
        #expect(Fixture.decide([stored], at: 60).kind == "revalidate")
        #expect(Fixture.decide([stored], at: 3601, rules: Self.minimumHour).kind == "revalidate", "the minimum runs out too")
    }

    @Test("a minimum TTL makes a response without freshness storable, but never a no-store one")
    func minimumAndStorability() {
        let request = Fixture.get()
        let bare = Fixture.response(200, "Content-Type: text/plain")
        #expect(Fixture.privateCache.storability(request: request, response: bare, now: Fixture.t0) == .notStorable(.noFreshnessNorValidator))
        #expect(Self.minimumHour.storability(request: request, response: bare, now: Fixture.t0) == .storable)
        let noStore = Fixture.response(200, "Cache-Control: no-store")
        #expect(Self.minimumHour.storability(request: request, response: noStore, now: Fixture.t0) == .notStorable(.responseNoStore))
    }

    @Test("ignoring no-cache serves a fresh no-cache response instead of revalidating it", arguments: [
        "Cache-Control: no-cache, max-age=600", "Pragma: no-cache",
    ])
    func ignoringNoCacheServes(field: String) {
        let stored = Fixture.stored(field, "Expires: \(Fixture.httpDate(600))", #"ETag: "v1""#)
        #expect(Fixture.decide([stored], at: 10).kind == "revalidate")
        #expect(Fixture.decide([stored], at: 10, rules: Self.ignoringNoCache).kind == "fresh")
    }

    @Test("ignoring no-cache leaves a request's own no-cache alone")
    func requestNoCacheStillRevalidates() {
        let stored = Fixture.stored("Cache-Control: max-age=600", #"ETag: "v1""#)
        let decision = Fixture.decide([stored], request: Fixture.get("Cache-Control: no-cache"), at: 10, rules: Self.ignoringNoCache)
        #expect(decision.kind == "revalidate")
    }
}
