import Foundation
import HTTPTypes
import Testing
@testable import HTTPCaching

/// RFC 9111 §5.2.1: request directives.
@Suite("RFC 9111 §5.2.1 request directives")
struct RequestDirectivesTests {
    /// Fresh for 600 s, stored at 0, with a validator.
    let longLived = Fixture.stored("Cache-Control: max-age=600", #"ETag: "v1""#)
    /// Fresh for 60 s, stored at 0, with a validator.
    let shortLived = Fixture.stored("Cache-Control: max-age=60", #"ETag: "v1""#)

    func decide(_ stored: StoredResponse, _ requestLines: String..., at now: Double) -> CacheDecision {
        Fixture.decide([stored], request: Fixture.request(.get, requestLines), at: now)
    }

    // MARK: §5.2.1.1 max-age

    /// A request directive asked at `now` of a response stored at 0, fresh for `lifetime` seconds.
    struct Limit: Sendable, CustomTestStringConvertible {
        let lifetime: Int
        let directive: String
        let now: Double

        var stored: StoredResponse { Fixture.stored("Cache-Control: max-age=\(lifetime)", #"ETag: "v1""#) }
        var testDescription: String { "\(directive) at \(Int(now)) s, fresh for \(lifetime) s" }
    }

    @Test(
        "§5.2.1.1 max-age: a response older than the limit is revalidated; §5.2.1.3 min-fresh: too little freshness left means revalidation",
        arguments: [
            (
                Limit(lifetime: 600, directive: "max-age=50", now: 100), RevalidationReason.requestMaxAge(limit: 50, age: 100),
                "request max-age=50 < age 100s"
            ),
            (
                Limit(lifetime: 60, directive: "min-fresh=30", now: 40), .requestMinFresh(required: 30, remaining: 20),
                "request min-fresh=30 > 20s left"
            ),
        ])
    func limitNotMet(_ limit: Limit, reason: RevalidationReason, words: String) {
        let decision = decide(limit.stored, "Cache-Control: \(limit.directive)", at: limit.now)
        guard let revalidation = Fixture.revalidation(decision) else { return }
        #expect(revalidation.reason == reason)
        #expect(decision.reason == words)
    }

    @Test(
        "§5.2.1.1 max-age: a response as old as the limit or younger is served; §5.2.1.3 min-fresh: enough freshness left is served",
        arguments: [
            Limit(lifetime: 600, directive: "max-age=100", now: 100), Limit(lifetime: 600, directive: "max-age=200", now: 100),
            Limit(lifetime: 60, directive: "min-fresh=20", now: 40), Limit(lifetime: 60, directive: "min-fresh=10", now: 40),
        ])
    func limitMet(_ limit: Limit) {
        #expect(decide(limit.stored, "Cache-Control: \(limit.directive)", at: limit.now).kind == "fresh")
    }

    @Test("§5.2.1.1 max-age=0 forces revalidation of a fresh response")
    func maxAgeZero() {
        #expect(decide(longLived, "Cache-Control: max-age=0", at: 1).summary == "revalidate: request max-age=0 < age 1s")
    }

    @Test("§5.2.1.1 an invalid request max-age is ignored", arguments: ["max-age=abc", "max-age=-1", "max-age=1, max-age=2"])
    func maxAgeInvalid(field: String) {
        #expect(decide(longLived, "Cache-Control: \(field)", at: 100).kind == "fresh")
    }

    // MARK: §5.2.1.2 max-stale

    @Test("§5.2.1.2 max-stale without a value accepts any staleness")
    func maxStaleUnlimited() {
        let decision = decide(shortLived, "Cache-Control: max-stale", at: 100_000)
        guard case .stale(let hit) = decision else {
            Issue.record("expected a stale hit, got \(decision)")
            return
        }
        #expect(hit.reason == .maxStale)
        #expect(hit.freshness.staleness == 99_940)
        #expect(decision.reason == "request max-stale")
        #expect(decision.immediateOutcome == .stale)
    }

    @Test("§5.2.1.2 max-stale=N accepts staleness up to N seconds", arguments: [(100.0, "stale"), (120, "stale"), (121, "revalidate")])
    func maxStaleLimited(now: Double, kind: String) {
        #expect(decide(shortLived, "Cache-Control: max-stale=60", at: now).kind == kind)
    }

    @Test("§5.2.1.2 an invalid max-stale is ignored")
    func maxStaleInvalid() {
        #expect(decide(shortLived, "Cache-Control: max-stale=soon", at: 100).summary == "revalidate: expired 40s ago")
    }

    @Test("§5.2.1.2 max-stale does not touch a fresh response")
    func maxStaleFresh() {
        #expect(decide(shortLived, "Cache-Control: max-stale", at: 10).kind == "fresh")
    }

    // MARK: §5.2.1.3 min-fresh

    // MARK: §5.2.1.4 no-cache

    @Test("§5.2.1.4 request no-cache revalidates even a fresh response")
    func noCache() {
        #expect(decide(longLived, "Cache-Control: no-cache", at: 1).summary == "revalidate: request no-cache")
    }

    @Test("§5.2.1.4 request no-cache without a validator fetches in full")
    func noCacheWithoutValidator() {
        let decision = decide(Fixture.stored("Cache-Control: max-age=600"), "Cache-Control: no-cache", at: 1)
        #expect(decision == .miss(Miss(reason: .staleWithoutValidator(.requestNoCache), candidate: 0)))
        #expect(decision.reason == "request no-cache, no validator")
    }

    // MARK: §5.2.1.5 no-store

    @Test("§5.2.1.5 request no-store: the answer is not stored, but a stored response may still be used")
    func noStore() {
        let request = Fixture.get("Cache-Control: no-store")
        #expect(decide(longLived, "Cache-Control: no-store", at: 1).kind == "fresh")
        let storability = Fixture.privateCache.storability(request: request, response: Fixture.response(200, "Cache-Control: max-age=60"), now: Fixture.t0)
        #expect(storability == .notStorable(.requestNoStore))
    }

    // MARK: §5.2.1.7 only-if-cached

    @Test("§5.2.1.7 only-if-cached with nothing stored cannot be satisfied (504)")
    func onlyIfCachedNothing() {
        let decision = Fixture.decide([], request: Fixture.get("Cache-Control: only-if-cached"), at: 0)
        #expect(decision == .unsatisfiable(.onlyIfCached))
        #expect(decision.immediateOutcome == .error)
        #expect(decision.reason == "only-if-cached and nothing usable stored")
    }

    @Test("§5.2.1.7 only-if-cached serves a fresh response")
    func onlyIfCachedFresh() {
        #expect(decide(longLived, "Cache-Control: only-if-cached", at: 10).kind == "fresh")
    }

    @Test("§5.2.1.7 only-if-cached with a stale response needing validation cannot be satisfied")
    func onlyIfCachedStale() {
        #expect(decide(shortLived, "Cache-Control: only-if-cached", at: 100) == .unsatisfiable(.onlyIfCached))
        #expect(decide(longLived, "Cache-Control: only-if-cached, no-cache", at: 1) == .unsatisfiable(.onlyIfCached))
    }

    @Test("§5.2.1.7 only-if-cached with max-stale serves the stale response")
    func onlyIfCachedMaxStale() {
        #expect(decide(shortLived, "Cache-Control: only-if-cached, max-stale", at: 100).summary == "stale: request max-stale")
    }

    @Test("§5.2.1.7 only-if-cached with a Vary mismatch cannot be satisfied")
    func onlyIfCachedVaryMismatch() {
        let stored = Fixture.stored("Cache-Control: max-age=600", "Vary: Accept-Language", requestLines: ["Accept-Language: de"])
        let request = Fixture.get("Cache-Control: only-if-cached", "Accept-Language: en")
        #expect(Fixture.decide([stored], request: request, at: 1) == .unsatisfiable(.onlyIfCached))
    }

    @Test("§5.2.1.7 only-if-cached with a stale response without validator cannot be satisfied")
    func onlyIfCachedNoValidator() {
        #expect(decide(Fixture.stored("Cache-Control: max-age=60"), "Cache-Control: only-if-cached", at: 100) == .unsatisfiable(.onlyIfCached))
    }
}
